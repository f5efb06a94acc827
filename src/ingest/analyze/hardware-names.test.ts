/**
 * Hardware told apart from products by the noun written after it (hardware-names.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hardwareFamilies, isHardwareFamily } from './hardware-names.ts';

test('a name written right before a hardware noun, each name ending there once', () => {
  assert.deepEqual(hardwareFamilies('I added an Epyc CPU and two NVMe drives'), ['epyc', 'nvme']);
  assert.deepEqual(hardwareFamilies('A Blackwell GPU would do').sort(), ['ablackwell', 'blackwell']);
  assert.deepEqual(hardwareFamilies('my Threadripper Pro workstation').sort(), ['pro', 'threadripperpro']);
  assert.deepEqual(hardwareFamilies('Huawei chips, Huawei chips'), ['huawei']);
});

test('software has servers, builds, adapters, bridges and ports, other communities cards and boards, and a capitalised noun is part of a name', () => {
  assert.deepEqual(hardwareFamilies('the Lemonade server and the CUDA build on my machine'), []);
  assert.deepEqual(hardwareFamilies('LoRA adapters over an MCP bridge, then the Switch port'), []);
  assert.deepEqual(hardwareFamilies('my Anki cards and the Trello board'), []);
  assert.deepEqual(hardwareFamilies('I keep my notes in Google Drive'), []);
  assert.deepEqual(hardwareFamilies('Ollama runs fine on cards like these'), []);
});

test('hardware when written so twice and in a tenth of its mentions, as a model family is by its size', () => {
  assert.equal(isHardwareFamily({ hardware: 9, mentions: 14 }), true);
  assert.equal(isHardwareFamily({ hardware: 1, mentions: 0 }), false, 'once is no evidence');
  assert.equal(isHardwareFamily({ hardware: 2, mentions: 40 }), false, 'a product people sometimes write before "GPU"');
});
