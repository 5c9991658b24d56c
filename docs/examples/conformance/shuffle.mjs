// The portable shuffle "splitmix64-v1" of docs/shuffle.md, in JavaScript: the same seed gives the
// same deal and the same reshuffles as unoengine's reference engine. 64-bit unsigned arithmetic
// is done on BigInt, reduced modulo 2^64 after every step that can overflow.
const MASK = (1n << 64n) - 1n;
const GAMMA = 0x9e3779b97f4a7c15n;
const MIX_1 = 0xbf58476d1ce4e5b9n;
const MIX_2 = 0x94d049bb133111ebn;

export class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed) & MASK;
  }

  // The next 64-bit output (a BigInt).
  next() {
    this.state = (this.state + GAMMA) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * MIX_1) & MASK;
    z = ((z ^ (z >> 27n)) * MIX_2) & MASK;
    return z ^ (z >> 31n);
  }

  // A uniform integer from 0 to bound - 1, without bias (Lemire's multiply-shift with rejection).
  below(bound) {
    const n = BigInt(bound);
    let product = this.next() * n;
    if ((product & MASK) < n) {
      const floor = ((1n << 64n) - n) % n;
      while ((product & MASK) < floor) product = this.next() * n;
    }
    return product >> 64n;
  }

  // Fisher-Yates from the top, in place.
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Number(this.below(i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
  }
}

// Shuffle items in place from seed; returns the next seed (the stream's next output, a BigInt).
export function shuffled(seed, items) {
  const stream = new SplitMix64(seed);
  stream.shuffle(items);
  return stream.next();
}
