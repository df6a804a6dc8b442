import { describe, expect, it } from 'vitest';
import { limitedNetwork } from './public-form-limits';

describe('what one public-form limit counts', () => {
  it('counts an IPv4 address as itself, mapped into IPv6 or not', () => {
    expect(limitedNetwork('198.51.100.7')).toBe('198.51.100.7');
    expect(limitedNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(limitedNetwork('::FFFF:198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const network = '2001:db8:abcd:12::/64';
    for (const ip of ['2001:db8:abcd:12::1', '2001:0db8:abcd:0012:ffff:1:2:3', '2001:DB8:ABCD:12:0:0:0:9', '2001:db8:abcd:12::1.2.3.4', '2001:db8:abcd:12::5%eth0']) {
      expect(limitedNetwork(ip)).toBe(network);
    }
    expect(limitedNetwork('2001:db8:abcd:13::1')).not.toBe(network);
    expect(limitedNetwork('::1')).toBe('0:0:0:0::/64');
    expect(limitedNetwork('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(limitedNetwork('unknown')).toBe('unknown');
  });
});
