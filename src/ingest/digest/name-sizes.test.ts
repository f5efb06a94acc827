/**
 * A project's counts of how its threads write each name (name-sizes.ts): what is counted once,
 * what is never a model family, and which families a batch turned into one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ThreadComment } from '../../domain/thread.ts';
import { NameSizes } from './name-sizes.ts';

const comment = (id: string, body: string, replies: ThreadComment[] = []): ThreadComment => ({ id, author: 'a', body, score: 1, createdAt: '2025-01-01T00:00:00.000Z', replies });
const thread = (id: string, selftext: string, comments: ThreadComment[] = []) => ({ id, title: 'Local setup', selftext, comments });

describe('name sizes', () => {
  test('a batch that writes a name with its size makes it a model family, once', () => {
    const sizes = new NameSizes('prj', []);
    sizes.weighPassages([thread('t1', 'QwQ-32B is out', [comment('c1', 'I run QwQ 32B at Q4', [comment('c2', 'qwq:32b here')])])], new Map());
    sizes.weighMentions(['QwQ', 'QwQ', 'Ollama']);
    assert.equal(sizes.notAProduct('QwQ'), true);
    assert.equal(sizes.notAProduct('Ollama'), false);
    const first = sizes.settle();
    assert.deepEqual([...first.notProducts], ['qwq']);
    assert.deepEqual(first.rows.find((r) => r.family === 'qwq'), { project_id: 'prj', family: 'qwq', sized: 3, hardware: 0, mentions: 2 });
    // Already a model family: the next batch turns nothing.
    sizes.weighMentions(['QwQ']);
    assert.deepEqual([...sizes.settle().notProducts], []);
  });

  test('what the project holds already is not counted again', () => {
    const sizes = new NameSizes('prj', []);
    const stored = new Map([['t1', new Set(['c1'])]]);
    sizes.weighPassages([thread('t1', 'QwQ-32B is out', [comment('c1', 'QwQ-32B again'), comment('c3', 'and Mixtral 8x7B')])], stored);
    const rows = sizes.settle().rows;
    assert.deepEqual(rows.map((r) => r.family), ['mixtral'], 'only the new comment counts');
  });

  test('the stored counts carry over: a run judges with what the project read before', () => {
    const sizes = new NameSizes('prj', []);
    sizes.seed([{ project_id: 'prj', family: 'qwq', sized: 5, hardware: 0, mentions: 10 }]);
    assert.equal(sizes.notAProduct('QwQ'), true);
    sizes.weighMentions(Array(40).fill('QwQ'));
    assert.equal(sizes.notAProduct('QwQ'), false, 'a name mentioned as a product far more often than with a size is a product');
  });

  test('tracked competitors and names the labels call products are never model families', () => {
    const sizes = new NameSizes('prj', ['Acme']);
    sizes.weighPassages([thread('t1', 'Acme 7B and Docker 2B and Acme 13B and Docker 70B')], new Map());
    assert.equal(sizes.notAProduct('Acme'), false);
    assert.equal(sizes.notAProduct('Docker'), false);
    assert.deepEqual([...sizes.settle().notProducts], []);
  });

  test('a name its threads write before a hardware noun is hardware, no product; a product written so now and then stays one', () => {
    const sizes = new NameSizes('prj', []);
    sizes.weighPassages([thread('t1', 'Got an Epyc CPU for the rig', [comment('c1', 'Epyc CPUs are cheap now'), comment('c2', 'I use the Acme GPU offload')])], new Map());
    sizes.weighMentions(['Epyc', 'Epyc', 'Acme', 'Acme']);
    assert.equal(sizes.notAProduct('Epyc'), true);
    assert.equal(sizes.notAProduct('Acme'), false, 'written before a part once');
    const settled = sizes.settle();
    assert.deepEqual([...settled.notProducts], ['epyc']);
    assert.deepEqual(settled.rows.find((r) => r.family === 'epyc'), { project_id: 'prj', family: 'epyc', sized: 0, hardware: 2, mentions: 2 });
  });
});
