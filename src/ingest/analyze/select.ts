/**
 * Which analyzer a digest run uses (DESIGN §8.2): `llm` when `LLM_BASE_URL` is set (an
 * OpenAI-compatible endpoint; docs/llm.md), with `rules` as its fallback; `rules` otherwise.
 * Read once at start by `signals serve` and `signals digest run`: a bad LLM setting is an error
 * there, not a surprise in the middle of a run.
 */
import type { Logger } from '../../logger.ts';
import type { Analyzer } from './analyzer.ts';
import { createLlmAnalyzer, llmOptionsFromEnv } from './llm.ts';
import { rulesAnalyzer } from './rules.ts';

export function analyzerFromEnv(env: NodeJS.ProcessEnv = process.env, logger?: Logger): Analyzer {
  const options = llmOptionsFromEnv(env, rulesAnalyzer);
  return options ? createLlmAnalyzer({ ...options, logger }) : rulesAnalyzer;
}
