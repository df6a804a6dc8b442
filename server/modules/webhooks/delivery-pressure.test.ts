import { describe, expect, it } from 'vitest';
import { DeliveryPressure } from './delivery-pressure';

const OPTIONS = { windowMs: 500, burst: 10, waiting: 4 };

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
