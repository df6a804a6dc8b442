/**
 * `kill -9` during a stream of customer messages with the AI agent on (issue 10, item 4): a real
 * server process, a fake Graph API that records every send, WhatsApp, Messenger and Instagram
 * deliveries signed like Meta's; killed while a reply is in flight at "Meta", restarted, left until
 * idle. Nothing is lost (every customer message stored and answered, or its reply visibly marked
 * unknown/failed) and no customer gets a reply twice on the wire. The send in flight at the kill
 * is marked unknown rather than sent again. Figures for a larger run: `npm run bench -- --only=crash`.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/helpers/database';
import { runSendCrash } from '../../../test/helpers/send-crash';

describe.each(ENGINES)('kill -9 while replies go out (%s)', { timeout: 180_000 }, (engine) => {
  it('loses no customer message and sends no reply twice', async () => {
    const result = await runSendCrash({ engine, messages: 90, killAtSend: 30 });
    expect(result.problems, result.problems.join('\n')).toEqual([]);
    expect(result).toMatchObject({ lost: 0, duplicated: 0 });
    // The reply in flight at the kill reached "Meta" without its answer reaching the server: not
    // sent again, but shown to the team to check and resend.
    expect(result.unknown).toBeGreaterThanOrEqual(1);
    expect(result.wireSends + result.unknown).toBeGreaterThanOrEqual(result.customers);
  });
});
