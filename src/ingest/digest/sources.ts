/**
 * Which source a digest reads (DESIGN §8, "Collect"). Today: `file:PATH` (given with `--source`,
 * or `DIGEST_SOURCE` for the scheduler). The network adapters (`reddit-rss`, `reddit-api`, `hn`)
 * will be chosen here per watched community; until they exist, a run without a file source says
 * so instead of collecting nothing.
 */
import { FileSourceError, fileSource, inputFiles } from '../sources/file.ts';
import type { Source } from '../sources/source.ts';
import { DigestError } from './run.ts';

export function sourceFrom(spec: string | undefined, origin = '--source'): Source {
  if (spec === undefined || spec.trim() === '') {
    throw new DigestError(
      'no source to collect from: give --source file:DIR (or set DIGEST_SOURCE=file:DIR); the Reddit and Hacker News adapters are not built yet',
    );
  }
  const match = /^file:(.+)$/.exec(spec.trim());
  if (!match) throw new DigestError(`${origin}: unknown source "${spec}": use file:DIR or file:FILE (a Reddit-shaped JSONL export)`);
  const path = match[1]!;
  // Checked before a run is recorded: a typo in the path is a usage problem, not a failed run.
  try {
    inputFiles(path);
  } catch (err) {
    if (err instanceof FileSourceError) throw new DigestError(`${origin} ${spec}: ${err.message}`);
    throw err;
  }
  return fileSource(path);
}
