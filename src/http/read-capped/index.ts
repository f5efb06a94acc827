/**
 * Reading an HTTP body with a size bound, for bodies we receive (json-body middleware) and answers
 * we fetch (the llm analyzer's endpoint): bytes are counted as they arrive, so a missing or lying
 * Content-Length cannot get more in, and the stream is cancelled the moment the bound is passed.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // The refusal is the answer: a failing cancel must not replace it.
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
