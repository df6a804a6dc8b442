import type { z } from 'zod';
import type { createdChannel } from '@common/api/channels';
import { CopyField } from '@/components/copy-field';
import { isMetaKind } from '../lib/channels';

type ChannelWithSecrets = z.infer<typeof createdChannel>;

/** What a platform needs from Parley: the webhook URL, the one-time secrets, the embed snippet. */
export function ChannelSecrets({ channel }: { channel: ChannelWithSecrets }) {
  return (
    <div className="grid gap-3">
      {channel.webhookUrl ? (
        <CopyField label={isMetaKind(channel.kind) ? 'Callback URL' : 'Inbound URL'} value={channel.webhookUrl} kind="url" />
      ) : null}
      {channel.verifyToken ? <CopyField label="Verify Token" value={channel.verifyToken} /> : null}
      {channel.signingSecret ? <CopyField label="Signing Secret" value={channel.signingSecret} /> : null}
      {channel.embedSnippet ? <CopyField label="Embed Snippet" value={channel.embedSnippet} multiline /> : null}
      {isMetaKind(channel.kind) ? (
        <p className="text-xs text-muted-foreground">
          In the Meta app&apos;s webhook settings, paste the callback URL and the verify token, then subscribe to the messages field.
        </p>
      ) : null}
      {channel.kind === 'webchat' ? (
        <p className="text-xs text-muted-foreground">Paste the snippet before the closing &lt;/body&gt; tag of every page that should show the chat.</p>
      ) : null}
      {channel.kind === 'api' ? (
        <p className="text-xs text-muted-foreground">
          Sign every request to the inbound URL with the signing secret (see the API documentation at /docs); replies arrive at the callback URL signed the same way.
        </p>
      ) : null}
    </div>
  );
}
