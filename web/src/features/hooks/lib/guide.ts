/**
 * The guide's facts (issue 14 §2, §5, §6): the headers of a delivery, how to check its signature,
 * the retry policy and the REST hooks. The signature is the API channel's scheme
 * (common/api/channels.ts `API_SIGNATURE`, server/modules/channels/adapters/api-signature.ts):
 * `X-Parley-Signature: sha256=<lowercase hex HMAC-SHA256 of "<X-Parley-Timestamp>.<raw body>">`,
 * so one verifier serves deliveries, automation runs and the API channel's callbacks.
 */
import { API_SIGNATURE } from '@common/api/channels';
import { DEFAULT_AUTO_DISABLE_FAILURES, DELIVERY_RETRY_WINDOW_MS, DELIVERY_TIMEOUT_MS } from '@common/api/hooks';

/** The headers of every delivery (server/modules/hooks sends exactly these). */
export const DELIVERY_HEADERS: readonly { name: string; value: string }[] = [
  { name: 'Content-Type', value: 'application/json' },
  { name: 'User-Agent', value: 'Parley-Webhooks/1' },
  {
    name: 'X-Parley-Event-Id',
    value: "The event's id, the same in every retry and redelivery: use it to ignore an event you already handled (a test event carries its delivery's id).",
  },
  { name: 'X-Parley-Event-Type', value: 'The event type, e.g. message.received (ping for a test event).' },
  { name: 'X-Parley-Delivery-Id', value: 'This delivery, as listed in the delivery log.' },
  { name: 'X-Parley-Timestamp', value: 'When Parley signed the request, in Unix seconds.' },
  { name: 'X-Parley-Signature', value: 'sha256= followed by the lowercase hex HMAC-SHA256 of "<timestamp>.<raw body>", keyed with the signing secret.' },
];

const TOLERANCE = API_SIGNATURE.toleranceSeconds;

export const NODE_SNIPPET = `import crypto from 'node:crypto';

// rawBody: the exact bytes received (a Buffer), before any JSON parsing.
export function verifyParleySignature(secret, headers, rawBody) {
  const timestamp = headers['x-parley-timestamp'];
  const signature = headers['x-parley-signature'];
  if (!timestamp || !signature) return false;
  // Refuse old requests: a captured one cannot be replayed later.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > ${TOLERANCE}) return false;
  const expected =
    'sha256=' +
    crypto.createHmac('sha256', secret).update(\`\${timestamp}.\`).update(rawBody).digest('hex');
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

// Express (app = express()): keep the raw body for the check, parse it afterwards.
app.post('/parley', express.raw({ type: 'application/json' }), (req, res) => {
  if (!verifyParleySignature(process.env.PARLEY_SIGNING_SECRET, req.headers, req.body)) {
    return res.sendStatus(401);
  }
  const event = JSON.parse(req.body.toString('utf8'));
  res.sendStatus(204); // answer fast; do the work afterwards
});`;

export const PYTHON_SNIPPET = `import hashlib
import hmac
import os
import time

def verify_parley_signature(secret: str, headers, raw_body: bytes) -> bool:
    timestamp = headers.get("X-Parley-Timestamp", "")
    signature = headers.get("X-Parley-Signature", "")
    if not timestamp.isdigit() or not signature:
        return False
    # Refuse old requests: a captured one cannot be replayed later.
    if abs(time.time() - int(timestamp)) > ${TOLERANCE}:
        return False
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + raw_body, hashlib.sha256)
    return hmac.compare_digest("sha256=" + mac.hexdigest(), signature)

# Flask (app = Flask(__name__)): request.get_data() is the raw body.
@app.post("/parley")
def parley_webhook():
    if not verify_parley_signature(os.environ["PARLEY_SIGNING_SECRET"], request.headers, request.get_data()):
        return "", 401
    event = request.get_json()
    return "", 204`;

const hours = DELIVERY_RETRY_WINDOW_MS / 3_600_000;

export const RETRY_POLICY: readonly string[] = [
  `Any 2xx answer within ${DELIVERY_TIMEOUT_MS / 1000} seconds is a success.`,
  `Network errors, timeouts, 408, 429 (Parley waits as long as its Retry-After header asks) and 5xx answers are retried with exponential backoff and jitter for up to ${hours} hours.`,
  'Any other 4xx answer fails the delivery at once, without retries.',
  'A 410 Gone answer removes a subscription created through the REST hooks API (as Zapier expects).',
  `After repeated failures (by default ${DEFAULT_AUTO_DISABLE_FAILURES} failed attempts in a row, spanning at least a day) Parley turns the subscription inactive, says why in the list, and tells admins, managers and the client's users in the app and by e-mail; resume it once the endpoint works.`,
  'Deliveries of one subscription keep the order of events within a conversation.',
  'A retried or redelivered event has the same X-Parley-Event-Id: handle each id once.',
];

export const REST_HOOKS: readonly { method: string; path: string; text: string }[] = [
  { method: 'POST', path: '/api/v1/hooks', text: 'Body {"target_url", "event"}: subscribes target_url to one event; answers 201 {"id"}.' },
  { method: 'DELETE', path: '/api/v1/hooks/{id}', text: 'Removes that subscription (204).' },
  { method: 'GET', path: '/api/v1/hooks/samples/{event}', text: 'Recent real payloads of the event you may see, or the documented example when there is none yet.' },
  { method: 'GET', path: '/api/v1/me', text: 'The authentication test: answers the key’s user.' },
];
