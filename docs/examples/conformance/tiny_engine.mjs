// A tiny UNO engine in JavaScript with its conformance adapter, speaking unoengine's conformance
// wire protocol (docs/conformance.md, protocol 2). Run the corpus against it:
//
//   unoengine conformance --engine-cmd "node docs/examples/conformance/tiny_engine.mjs"
//
// The engine knows little, and says so: classic-108 only, set up from an exact position (or dealt
// from a seed with the dealer named), number cards, Skip, Reverse, Draw Two and Wild; drawing is
// one step (draw and keep); no UNO calls, no challenges, no scores, no phases, no rule IDs. Every
// shuffle (a draw pile left out, a deal, the reshuffle of PLAY-7) is unoengine's portable
// "splitmix64-v1" (shuffle.mjs, docs/shuffle.md), so a seed gives the reference engine's cards
// (a seed read from a JSON number is exact up to 2^53; shuffle.mjs itself takes any 64-bit BigInt). It declares only the capabilities it has, and
// answers "unsupported" for the rest (a Wild Draw Four, a move it does not know), so the runner
// checks what it can and says how far each scenario got.
import { createInterface } from "node:readline";
import { shuffled } from "./shuffle.mjs";

const CAPABILITIES = ["start-position", "legal-moves", "event:CardsDrawn", "event:TurnSkipped"];
const COLORS = ["R", "Y", "G", "B"];

class Unsupported extends Error {}
class Refused extends Error {}

// The classic 108-card deck (DECK-1) in canonical order, the order shuffles start from
// (docs/shuffle.md): per colour one 0, two of 1-9, Skip, Reverse and Draw Two; then 4 W, 4 W+4.
function classicDeck() {
  const deck = [];
  for (const c of COLORS) {
    deck.push(c + "0");
    for (const s of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"]) deck.push(c + s, c + s);
  }
  for (const wild of ["W", "W+4"]) deck.push(wild, wild, wild, wild);
  return deck;
}

const cards = (text) => text.split(" ").filter((c) => c !== "");
const colorOf = (card) => (card.startsWith("W") ? null : card[0]);
const symbolOf = (card) => (card.startsWith("W") ? card : card.slice(1));

function start(scenario) {
  if (scenario.profile !== "classic-108" || Object.keys(scenario.options ?? {}).length > 0)
    throw new Unsupported("only plain classic-108");
  if (scenario.deal !== undefined) return deal(scenario.deal);
  const s = scenario.start;
  const hands = s.hands.map(cards);
  const discard = cards(s.discard);
  let pile;
  let seed = BigInt(s.seed ?? 0);
  if (s.draw_pile !== undefined) pile = cards(s.draw_pile);
  else {
    pile = classicDeck(); // every card not placed elsewhere, shuffled from the seed
    for (const card of [...hands.flat(), ...discard]) pile.splice(pile.indexOf(card), 1);
    seed = shuffled(seed, pile);
  }
  const top = discard[discard.length - 1];
  const color = s.color ?? colorOf(top);
  if (color === null) throw new Unsupported("a wild on top with no colour named");
  return { hands, discard, pile, color, direction: s.direction ?? 1, current: s.current ?? 0, winner: null, seed };
}

// SETUP-1/3: the deck shuffled from the seed (or given), seven cards one at a time from the
// dealer's left, then the first card turned; only a number card first (SETUP-4..10 are not here).
function deal(d) {
  if (d.dealer === undefined || d.dealer_draw !== undefined) throw new Unsupported("the draw for dealer");
  const players = d.players;
  let seed = BigInt(d.seed ?? 0);
  let deck;
  if (d.deck !== undefined) deck = cards(d.deck);
  else {
    deck = classicDeck();
    seed = shuffled(seed, deck);
  }
  const hands = Array.from({ length: players }, () => []);
  for (let i = 0; i < 7 * players; i++) hands[(d.dealer + 1 + i) % players].push(deck[i]);
  const first = deck[7 * players];
  if (!/^[RYGB][0-9]$/.test(first)) throw new Unsupported("a first card that acts");
  return {
    hands, discard: [first], pile: deck.slice(7 * players + 1), color: first[0], direction: 1,
    current: (d.dealer + 1) % players, winner: null, seed,
  };
}

const top = (g) => g.discard[g.discard.length - 1];
const next = (g, seat, steps = 1) => (((seat + g.direction * steps) % g.hands.length) + g.hands.length) % g.hands.length;
const matches = (g, card) => card === "W" || colorOf(card) === g.color || symbolOf(card) === symbolOf(top(g));

// PLAY-7: the discard pile but its top card, from the card below the top down, shuffled under
// what is left of the draw pile.
function reshuffle(g) {
  const below = g.discard.slice(0, -1).reverse();
  g.seed = shuffled(g.seed, below);
  g.pile.push(...below);
  g.discard = [top(g)];
}

function draw(g, seat, count, events) {
  if (g.pile.length < count && g.discard.length > 1) reshuffle(g);
  if (g.pile.length < count) throw new Unsupported("too few cards to draw, even after a reshuffle");
  const drawn = g.pile.splice(0, count);
  g.hands[seat].push(...drawn);
  events.push({ type: "CardsDrawn", player: seat, count, cards: drawn.join(" ") });
}

function play(g, move) {
  const words = move.split(" ");
  const seat = Number(words[0].slice(1));
  const what = words[1];
  if (g.winner !== null) throw new Refused("the round is over");
  if (["challenge", "accept", "uno", "catch", "color", "deal", "pass"].includes(what) || what.includes(">"))
    throw new Unsupported(`no ${what} here`);
  if (seat !== g.current) throw new Refused("not your turn");
  const events = [];
  if (what === "draw") {
    draw(g, seat, 1, events); // one step: draw, keep, and the turn passes (no draw-then-decide)
    g.current = next(g, seat);
    return events;
  }
  const [card, named] = what.split(":");
  if (card === "W+4") throw new Unsupported("Wild Draw Four (it needs challenges)");
  const at = g.hands[seat].indexOf(card);
  if (at < 0) throw new Refused("card not in hand");
  if (!matches(g, card)) throw new Refused("card does not match");
  if ((card === "W") !== COLORS.includes(named)) throw new Refused("a colour is named for a wild, and only for one");
  g.hands[seat].splice(at, 1);
  g.discard.push(card);
  g.color = card === "W" ? named : colorOf(card);
  const symbol = symbolOf(card);
  const out = g.hands[seat].length === 0;
  let after = next(g, seat);
  if (symbol === "+2") { // ACT-3, and ACT-9: even as the last card
    draw(g, after, 2, events);
    events.push({ type: "TurnSkipped", player: after });
    after = next(g, after);
  } else if (out) {
    // END-1: the round ends at once; a last Skip or Reverse is not carried out
  } else if (symbol === "S") { // ACT-1
    events.push({ type: "TurnSkipped", player: after });
    after = next(g, after);
  } else if (symbol === "R") { // ACT-2; with two players it also skips the other (HOUSE-6, classic-108)
    g.direction = -g.direction;
    after = g.hands.length === 2 ? seat : next(g, seat);
    if (g.hands.length === 2) events.push({ type: "TurnSkipped", player: next(g, seat) });
  }
  if (out) g.winner = seat;
  else g.current = after;
  return events;
}

function observe(g) {
  return {
    hand_sizes: g.hands.map((h) => h.length), hands: g.hands.map((h) => h.join(" ")), current: g.current,
    color: g.color, direction: g.direction, top: top(g), round_over: g.winner !== null, round_winner: g.winner,
  };
}

function legal(g, seat) {
  if (g.winner !== null || seat !== g.current) return [];
  if (g.hands[seat].includes("W+4")) throw new Unsupported("the legal moves of a hand holding a Wild Draw Four");
  const plays = [...new Set(g.hands[seat].filter((card) => matches(g, card)))].map((card) => `p${seat} ${card}`);
  return [...plays, `p${seat} draw`]; // one wild play, not one per colour (no wild-colors-listed)
}

// --- the wire protocol: one JSON request per line on stdin, one answer per line on stdout ---
const games = new Map();
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

function answer(request) {
  const g = games.get(request.game);
  switch (request.type) {
    case "start": games.set(request.game, start(request.scenario)); return { type: "started" };
    case "play": return { type: "played", events: play(g, request.move) };
    case "observe": return { type: "observed", facts: observe(g) };
    case "legal": return { type: "legal_moves", moves: legal(g, request.player) };
    default: throw new Error(`unknown request ${request.type}`);
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  if (request.type === "hello") send({ type: "ready", protocol: 2, name: "tiny-engine.js", capabilities: CAPABILITIES });
  else if (request.type === "end") games.delete(request.game);
  else if (request.type === "bye") process.exit(0);
  else {
    try {
      send({ id: request.id, ...answer(request) });
    } catch (e) {
      if (e instanceof Unsupported) send({ type: "unsupported", id: request.id, reason: e.message });
      else if (e instanceof Refused) send({ type: "rejected", id: request.id, rule: "", reason: e.message });
      else send({ type: "error", id: request.id, message: String(e), traceback: String(e.stack).split("\n").slice(1, 4) });
    }
  }
});
