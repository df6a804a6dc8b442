import { describe, expect, it } from 'vitest';
import { describeUserAgent, svgDataUrl, totpSecretOf } from './user-agent';

describe('describeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      'Chrome on macOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [null, 'Unknown device'],
  ])('%s -> %s', (ua, expected) => {
    expect(describeUserAgent(ua)).toBe(expected);
  });
});

describe('totpSecretOf', () => {
  it('reads the secret of an otpauth URI', () => {
    expect(totpSecretOf('otpauth://totp/Parley:ann%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Parley')).toBe(
      'JBSWY3DPEHPK3PXP',
    );
  });

  it('gives null for something else', () => {
    expect(totpSecretOf('not a uri')).toBeNull();
  });
});

describe('svgDataUrl', () => {
  it('encodes markup so it cannot break out of the attribute', () => {
    const url = svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>');
    expect(url.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(url).not.toContain('"');
    expect(url).not.toContain('<');
  });
});
