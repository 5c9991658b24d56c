// A UNO bot in JavaScript, speaking unoengine's bot wire protocol (docs/protocol.md).
// Run by a runner as a program:   unoengine simulate --bots "program:node first_legal_bot.mjs,random"
// It reads one JSON message per line on stdin and answers one per line on stdout.
//
// Its play: catch a player who forgot UNO, call UNO with the next-to-last card (late, if it ever
// forgot), otherwise play a legal card chosen with the seed it is given, and draw or pass only
// when it cannot play.
// Out of turn it lets the moment pass (null) unless it can catch someone.
import { createInterface } from "node:readline";

// A small seeded generator (mulberry32), so the same decision gets the same answer.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The view sends a hand as one string of card names separated by spaces ("R7 GS W+4"), not an array.
const cards = (text) => text.split(" ").filter((card) => card !== "");

function choose(message) {
  const legal = message.legal; // moves in notation: "p1 R5", "p1 W:G!", "p1 draw", "p1 catch p0" ...
  const catches = legal.filter((m) => m.includes(" catch "));
  if (catches.length > 0) return catches[0];
  // UNO-4: had it played its next-to-last card without calling, it calls late before anyone catches it.
  const lateCall = legal.find((m) => m.endsWith(" uno"));
  if (lateCall !== undefined) return lateCall;
  if (message.out_of_turn) return null;
  const words = (m) => m.split(" ").slice(1);
  const special = new Set(["draw", "pass", "challenge", "accept", "deal", "uno"]);
  const plays = legal.filter((m) => !special.has(words(m)[0]) && words(m)[0] !== "color");
  const hand = cards(message.view.hand).length;
  // UNO-1: with two cards, play the one that calls UNO ("!" at the end of the move).
  const candidates = hand === 2 ? plays.filter((m) => m.endsWith("!")) : plays.filter((m) => !m.endsWith("!"));
  const pool = candidates.length > 0 ? candidates : plays.length > 0 ? plays : legal;
  const random = generator(message.seed % 4294967296);
  return pool[Math.floor(random() * pool.length)];
}

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") send({ type: "ready", protocol: 1, name: "first-legal.js" });
  else if (message.type === "decide") send({ type: "move", id: message.id, move: choose(message) });
  else if (message.type === "bye") process.exit(0);
  // "game" and "game_over" need no answer.
});
