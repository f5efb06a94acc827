// `npm test`: Node 20's test runner does not expand globs, so find the suites here.
// Every *.test.ts under test/ and src/ (or the files/folders given as arguments) runs under tsx.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(path) {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .flatMap((entry) => {
      const full = join(path, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : findTests(full);
      return entry.name.endsWith('.test.ts') ? [full] : [];
    })
    .sort();
}

const roots = process.argv.slice(2);
const files = (roots.length > 0 ? roots : ['test', 'src']).flatMap(findTests);
if (files.length === 0) {
  console.error('no *.test.ts files found');
  process.exit(1);
}
// Suites are independent (each makes its own database), so two run at once on two cores.
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`, ...files],
  // Digest runs analyse in the main thread unless a suite asks for workers (rules-pool.test.ts):
  // two suites at once, each starting a worker per core, would oversubscribe a 2-core machine.
  { stdio: 'inherit', env: { SIGNALS_ANALYZER_WORKERS: '0', ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
