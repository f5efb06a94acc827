/**
 * Which source a digest reads (DESIGN §8, "Collect"): `--source file:PATH` (or `DIGEST_SOURCE`
 * for the scheduler) reads a Reddit-shaped dump; without one, a run collects live from each
 * watched community's address (sources/live.ts).
 *
 * A source is made per run: the live source keeps the run's outcomes and pending cursors.
 */
import type { SourceSettings } from '../../config.ts';
import type { PoliteOptions } from '../../net/polite.ts';
import type { Db } from '../../store/db.ts';
import { FileSourceError, fileSource, inputFiles } from '../sources/file.ts';
import { liveSource } from '../sources/live.ts';
import type { Source } from '../sources/source.ts';
import { DigestError } from './run.ts';

export type SourceFactory = () => Source;

export interface LiveSetup {
  db: Db;
  settings: SourceSettings;
  http?: PoliteOptions;
}

export function sourceFrom(spec: string | undefined, origin: string, live: LiveSetup): SourceFactory {
  if (spec === undefined || spec.trim() === '' || spec.trim() === 'live') return () => liveSource(live);
  const match = /^file:(.+)$/.exec(spec.trim());
  if (!match) throw new DigestError(`${origin}: unknown source "${spec}": use file:DIR or file:FILE (a Reddit-shaped JSONL export), or leave it out to collect live`);
  const path = match[1]!;
  // Checked before a run is recorded: a typo in the path is a usage problem, not a failed run.
  try {
    inputFiles(path);
  } catch (err) {
    if (err instanceof FileSourceError) throw new DigestError(`${origin} ${spec}: ${err.message}`);
    throw err;
  }
  const source = fileSource(path);
  return () => source;
}
