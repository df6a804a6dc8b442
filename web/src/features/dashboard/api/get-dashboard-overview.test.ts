import { describe, expect, it } from 'vitest';
import { averageResponseSeconds } from './get-dashboard-overview';

describe('averageResponseSeconds', () => {
  it('averages the answered conversations only', () => {
    expect(averageResponseSeconds([{ responseTimeSeconds: 60 }, { responseTimeSeconds: null }, { responseTimeSeconds: 180 }])).toEqual({ seconds: 120, sample: 2 });
  });

  it('has nothing to say before any answer', () => {
    expect(averageResponseSeconds([{ responseTimeSeconds: null }])).toEqual({ seconds: null, sample: 0 });
    expect(averageResponseSeconds([])).toEqual({ seconds: null, sample: 0 });
  });
});
