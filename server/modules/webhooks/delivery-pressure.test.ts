import { describe, expect, it } from 'vitest';
import { DeliveryPressure } from './delivery-pressure';

const OPTIONS = { windowMs: 500, burst: 10, waiting: 4, holdMs: 0 };

/** `n` deliveries stored (each committed at once) at time `at`. */
function stored(pressure: DeliveryPressure, n: number, at: number) {
  for (let i = 0; i < n; i += 1) {
    pressure.storing(at);
    pressure.stored();
  }
}

describe('delivery pressure', () => {
  it('is low for a trickle and high for a burst, and falls back once the burst has passed', () => {
    const pressure = new DeliveryPressure(OPTIONS);
    expect(pressure.high(0)).toBe(false);
    stored(pressure, 9, 1_000);
    expect(pressure.high(1_000)).toBe(false);
    stored(pressure, 1, 1_100);
    expect(pressure.high(1_100)).toBe(true);
    // The next window still carries most of the last one...
    expect(pressure.high(1_600)).toBe(true);
    // ...less and less of it as it ages...
    stored(pressure, 2, 1_600);
    expect(pressure.high(1_900)).toBe(false);
    // ...and nothing two windows on.
    expect(pressure.high(3_000)).toBe(false);
  });

  it('stays high for holdMs after it was last seen: a job that kept the thread from accepting does not hide a burst', () => {
    const held = new DeliveryPressure({ ...OPTIONS, holdMs: 2_000 });
    const unheld = new DeliveryPressure(OPTIONS);
    for (const pressure of [held, unheld]) stored(pressure, 10, 1_000); // a burst, seen as it is stored
    // Nothing accepted since (the thread ran a job's statement): two windows on, nothing is left of it...
    expect(unheld.high(2_000)).toBe(false);
    // ...but it was seen at 1,000: held until 3,000.
    expect(held.high(2_999)).toBe(true);
    expect(held.high(3_000)).toBe(false);
    // A reading that finds it high holds it from then.
    stored(held, 10, 5_000);
    expect(held.high(5_900)).toBe(true);
    expect(held.high(7_899)).toBe(true);
    expect(held.high(7_900)).toBe(false);
  });

  it('is high while many deliveries wait for their commit at once, at any rate', () => {
    const pressure = new DeliveryPressure({ ...OPTIONS, burst: 1_000 });
    for (let i = 0; i < 3; i += 1) pressure.storing(0);
    expect(pressure.high(0)).toBe(false);
    pressure.storing(0);
    expect(pressure.high(0)).toBe(true);
    expect(pressure.high(60_000)).toBe(true); // still waiting, however long ago they arrived
    pressure.stored();
    expect(pressure.high(60_000)).toBe(false);
    for (let i = 0; i < 10; i += 1) pressure.stored(); // more answers than deliveries never goes below zero
    pressure.storing(60_000);
    expect(pressure.high(60_000)).toBe(false);
  });
});
