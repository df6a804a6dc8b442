import { describe, expect, it } from 'vitest';
import { channelKind, createChannelInput } from '../api/channels';
import { CHANNEL_KIND_LABEL } from './channel-label';

describe('CHANNEL_KIND_LABEL', () => {
  it('names every channel kind as a new channel of that kind is named by default', () => {
    const defaults = Object.fromEntries(createChannelInput.options.map((o) => [o.shape.kind.value, o.shape.name.parse(undefined)]));
    expect(Object.keys(CHANNEL_KIND_LABEL).sort()).toEqual([...channelKind.options].sort());
    expect(CHANNEL_KIND_LABEL).toEqual(defaults);
  });

  it("reads the API kind as the spec's custom platform", () => {
    expect(CHANNEL_KIND_LABEL.api).toBe('Custom platform');
  });
});
