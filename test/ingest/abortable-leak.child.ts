// Run by abortable.test.ts with --expose-gc: does a thread handed out by abortable() stay
// reachable after the loop has moved on? Prints "collected" or "retained".
import { abortable } from '../../src/ingest/digest/run.ts';

const registry = new FinalizationRegistry<string>(() => {});
let firstRef: WeakRef<object> | undefined;
async function* items() {
  for (let i = 0; i < 200; i++) {
    const item = { i, payload: 'x'.repeat(10_000) };
    if (i === 0) firstRef = new WeakRef(item);
    registry.register(item, String(i));
    yield item;
  }
}
const controller = new AbortController();
let n = 0;
for await (const item of abortable(items(), controller.signal)) {
  n += item.i >= 0 ? 1 : 0;
  if (n === 150) {
    await new Promise((r) => setTimeout(r, 0));
    (globalThis as { gc?: () => void }).gc!();
    await new Promise((r) => setTimeout(r, 0));
    (globalThis as { gc?: () => void }).gc!();
    process.stdout.write(firstRef!.deref() === undefined ? 'collected' : 'retained');
  }
}
