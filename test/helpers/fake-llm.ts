/**
 * A local OpenAI-compatible chat-completions endpoint for the `llm` analyzer's tests: node:http on
 * 127.0.0.1 (port 0), answering each POST with the next scripted reply in the real response
 * format (`choices[].message.{content,refusal}`, `finish_reason`, `usage`), and recording what it
 * was sent. Replies can carry a status, headers, a delay, or hang until the client gives up.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  temperature: number;
  max_tokens: number;
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: { properties: Record<string, unknown> } } };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatBody;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  delayMs?: number;
  /** Never answer (the client's timeout or abort must end the request). */
  hang?: boolean;
}

export type Responder = Reply | ((request: RecordedRequest) => Reply);

export interface FakeLlm {
  /** Like `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Replies in order; once the script runs out, `otherwise` answers (by default an empty signal
 * list, so a test that sends more than it scripted still sees well-formed answers).
 */
export async function startFakeLlm(script: Responder[], otherwise: Responder = { body: completion(JSON.stringify({ signals: [] })) }): Promise<FakeLlm> {
  const requests: RecordedRequest[] = [];
  const queue = [...script];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody,
      };
      requests.push(recorded);
      const responder = queue.shift() ?? otherwise;
      const reply = typeof responder === 'function' ? responder(recorded) : responder;
      if (reply.hang) return;
      const send = () => write(res, reply);
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function write(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return; // the client gave up (timeout, abort)
  const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
  res.end(body);
}

export interface CompletionOptions {
  finishReason?: 'stop' | 'length' | 'content_filter';
  refusal?: string;
  /** Tokens reported; null leaves `usage` out, as some local servers do. */
  usage?: { prompt: number; completion: number } | null;
}

let completionCount = 0;

/** A chat.completion object as OpenAI (and the compatible servers) send it. */
export function completion(content: string | null, options: CompletionOptions = {}): Record<string, unknown> {
  completionCount += 1;
  const usage = options.usage === undefined ? { prompt: 900, completion: 100 } : options.usage;
  return {
    id: `chatcmpl-fake${completionCount}`,
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'fake-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: options.refusal ?? null },
        logprobs: null,
        finish_reason: options.finishReason ?? 'stop',
      },
    ],
    ...(usage ? { usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } } : {}),
    system_fingerprint: 'fp_fake',
  };
}

export interface FakeSignal {
  thread?: string;
  source: string;
  kind: 'pain' | 'competitor' | 'content';
  quote: string;
  product?: string | null;
  complaint?: boolean;
  move?: { title: string; body: string } | null;
}

/** The content of an analyze answer: `{"signals": [...]}` with every property present, as strict mode sends. */
export function signalsContent(signals: FakeSignal[]): string {
  return JSON.stringify({
    signals: signals.map((s) => ({
      thread: s.thread ?? 'T1',
      source: s.source,
      kind: s.kind,
      quote: s.quote,
      product: s.product ?? null,
      complaint: s.complaint ?? false,
      move: s.move ?? null,
    })),
  });
}

/** The thread ids (`T1`, …) and community of each thread in a request's user message. */
export function threadsIn(request: RecordedRequest): string[] {
  const user = request.body.messages.find((m) => m.role === 'user')?.content ?? '';
  return [...user.matchAll(/<thread id="(T\d+)"/g)].map((m) => m[1]!);
}

/** The passages of a request's user message, as `T1/c2` ids. */
export function passagesIn(request: RecordedRequest): string[] {
  const user = request.body.messages.find((m) => m.role === 'user')?.content ?? '';
  const out: string[] = [];
  let thread = '';
  for (const line of user.split('\n')) {
    const t = /^<thread id="(T\d+)"/.exec(line);
    if (t) thread = t[1]!;
    const p = /^<passage id="([\w]+)"/.exec(line);
    if (p) out.push(`${thread}/${p[1]}`);
  }
  return out;
}
