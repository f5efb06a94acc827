/**
 * The bundle behind `signals demo`: two fictional projects whose posts, signals and briefs come
 * from real r/LocalLLaMA threads shipped in `fixtures/localllama-threads.json.gz` (made by
 * scripts/make-demo-fixture.ts). Every quote is a verbatim slice of a post or comment, so the demo
 * shows what the extractor would really surface. Everything is derived from the fixture and the
 * tables below — no clock, no randomness — so two calls give identical bundles and re-importing the
 * demo upserts the same rows.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { base32 } from '../domain/ids.ts';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type Bundle,
  type BundleBrief,
  type BundleComment,
  type BundlePost,
  type BundleProject,
  type BundleRun,
  type BundleSignal,
  type BundleTheme,
} from './bundle.ts';

const FIXTURE = new URL('../../fixtures/localllama-threads.json.gz', import.meta.url);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BRIEF_DAYS = 7;

// ---------------------------------------------------------------------------------------------
// Project tables
// ---------------------------------------------------------------------------------------------

interface PainThemeSpec {
  key: string;
  title: string;
  summary: string;
  /** A sentence joins this theme when it names the topic and also voices a complaint. */
  match: RegExp;
  /** Index into the project's offerings when one of them answers this pain. */
  offering: number | null;
  move: { title: string; body: string };
}

interface CompetitorThemeSpec {
  product: string;
  title: string;
  summary: string;
}

interface Offering {
  name: string;
  description: string;
  pitch: string;
}

interface ProjectSpec {
  id: string;
  name: string;
  url: string;
  category: string;
  description: string;
  idealCustomer: string;
  competitors: { name: string; url: string; description: string }[];
  offerings: Offering[];
  communities: { name: string; description: string }[];
  filterRules: string[];
  /** Hours after the base creation time, so the default project is the newest one. */
  createdOffsetHours: number;
  painThemes: PainThemeSpec[];
  competitorThemes: CompetitorThemeSpec[];
  limits: { perTheme: number; perPost: number; perProduct: number; content: number };
}

/** Products named in the threads, with the spellings people actually use. */
const PRODUCTS: { name: string; match: RegExp }[] = [
  { name: 'Ollama', match: /\bollama\b/i },
  { name: 'llama.cpp', match: /\bllama\.cpp\b|\bllamacpp\b|\bllama-server\b/i },
  { name: 'LM Studio', match: /\blm ?studio\b/i },
  { name: 'vLLM', match: /\bvllm\b/i },
  { name: 'OpenRouter', match: /\bopen ?router\b/i },
  { name: 'Claude', match: /\bclaude\b/i },
  { name: 'ChatGPT', match: /\bchatgpt\b/i },
  { name: 'koboldcpp', match: /\bkobold(?:cpp)?\b/i },
  { name: 'text-generation-webui', match: /\boobabooga\b|\btext-generation-webui\b|\booba\b/i },
  { name: 'ExLlama', match: /\bexllama(?:v2|v3)?\b|\bexl[23]\b|\btabbyapi\b/i },
  { name: 'MLX', match: /\bmlx\b/i },
  { name: 'Jan', match: /\bjan\.ai\b|\bJan app\b|\bJan (?:now|is|has|does)\b/ },
  { name: 'GPT4All', match: /\bgpt4all\b/i },
];

const COMPLAINT =
  /frustrat|annoy|doesn['’]?t work|does not work|can['’]?t get|cannot get|\bslow|crash|\bOOM\b|out of memory|\bI wish\b|\bwish (?:it|there|they|we|that)\b|struggl|problem|\bissues?\b|broken|\bbugs?\b|buggy|\bfail|terrible|awful|useless|unusable|nightmare|headache|\bstuck\b|disappoint|confusing|confused|hard to|not working|\bpain(?:ful)?\b|garbage|\bsucks?\b|worse/i;
/** "No problem", "not a quant issue", "zero hallucinations": complaint words that praise. */
const NOT_COMPLAINT =
  /\bno (?:problems?|issues?)\b|without (?:a |any )?(?:problems?|issues?)|\bnot (?:an? |the )?(?:[\w-]+ ){0,4}(?:issue|problem)\b|n['’]t (?:an? |the )?(?:big |real )?(?:issue|problem)|not too bad|\bzero (?:hallucinat|issues|problems)|never (?:had|have) (?:an? |any )?(?:issue|problem)|no complaints|never fails|almost never|don['’]t remember having|haven['’]t had|have yet to experience/i;
/** A question only counts as a pain when the asker reports the trouble themselves. */
const TROUBLE_QUESTION = /(?:having|had|getting|experienc\w*) (?:the same |similar |any |some )?(?:issues?|problems?|trouble)/i;

const isComplaint = (quote: string): boolean =>
  COMPLAINT.test(quote) && !NOT_COMPLAINT.test(quote) && (!/\?["”')]*$/.test(quote) || TROUBLE_QUESTION.test(quote));

/** Sentences that compare or judge a product; bare name-drops make poor competitor signals. */
const OPINION =
  /better|worse|faster|slower|prefer|switch|instead|\bthan\b|easier|harder|love|hate|\bbugs?\b|issue|problem|broken|support|closed|open source|default|recommend|works? (?:great|well|fine)/i;
const QUESTION_TITLE = /^(?:how|what|which|why|is|are|can|does|do|should|any|anyone|where|when)\b.*\?\s*$/i;

const QUANTFORGE: ProjectSpec = {
  id: 'prj_demo_inference',
  name: 'Quantforge',
  url: 'https://quantforge.example.com',
  category: 'AI infrastructure',
  description:
    'Hosted inference for open-weight models: pick any GGUF, EXL or safetensors quant and get a tuned, OpenAI-compatible endpoint on dedicated GPUs in minutes, without buying or babysitting hardware.',
  idealCustomer:
    'Developers and small teams who run local models today (Ollama, llama.cpp, LM Studio) and hit the limits of their own GPU: not enough VRAM for 70B+ or MoE models, slow prompt processing on long contexts, or a box that cannot serve more than one user.',
  competitors: [
    { name: 'Ollama', url: 'https://ollama.com', description: 'Free desktop runtime and model library; the default first step into local models.' },
    { name: 'LM Studio', url: 'https://lmstudio.ai', description: 'Desktop app to download and chat with local models, with an OpenAI-compatible local server.' },
    { name: 'vLLM', url: 'https://github.com/vllm-project/vllm', description: 'High-throughput open-source serving engine, strongest on multi-GPU NVIDIA servers.' },
    { name: 'OpenRouter', url: 'https://openrouter.ai', description: 'One API and bill for hundreds of hosted models from many providers.' },
  ],
  offerings: [
    {
      name: 'Managed GGUF endpoints',
      description: 'Upload or pick any quant from Hugging Face and get an OpenAI-compatible endpoint with llama.cpp or vLLM settings tuned for it.',
      pitch: 'Quantforge runs the exact quant you use locally on a dedicated 48–96 GB GPU behind an OpenAI-compatible URL, with the context size, chat template and KV-cache settings already tuned.',
    },
    {
      name: 'Burst GPU pools',
      description: 'Hourly multi-GPU pools (2–8 × 48 GB) for 70B–235B and MoE models, with tensor parallelism preconfigured.',
      pitch: 'Burst pools give you 2–8 linked 48 GB GPUs by the hour with tensor parallelism already set up, so a 235B MoE runs at full speed without a home-built multi-GPU rig.',
    },
    {
      name: 'Quant advisor',
      description: 'Tells you which quant, context length and offload split fit a given GPU and latency budget, before you download 100 GB.',
      pitch: 'The Quant advisor tells you which quant, context length and offload split fit your GPU and latency target before you download anything, with measured tokens/s for each option.',
    },
  ],
  communities: [{ name: 'LocalLLaMA', description: 'r/LocalLLaMA: people running open-weight models on their own hardware.' }],
  filterRules: [
    'Ignore memes and image-only posts.',
    'Ignore model-release hype without discussion of running the model.',
    'Skip jailbreak and NSFW roleplay requests.',
  ],
  createdOffsetHours: 26,
  limits: { perTheme: 9, perPost: 3, perProduct: 10, content: 12 },
  painThemes: [
    {
      key: 'prompt-processing',
      title: 'Slow prompt processing on long contexts',
      summary: 'Prefill on long prompts takes minutes on consumer hardware, so time to first token dominates every request.',
      match: /prompt processing|prompt eval|\bpp\b|pre-?fill|time to first token|\bttft\b/i,
      offering: 0,
      move: {
        title: 'Benchmark: time to first token at 8k, 32k and 100k context',
        body: 'Publish a table of prompt-processing speed per GPU and runtime at three context sizes, explain why prefill is compute-bound, and show which settings (batch size, flash attention, KV-cache type) move it.',
      },
    },
    {
      key: 'tool-calling',
      title: 'Broken tool calling in local runtimes',
      summary: 'Tool and function calls fail or come back malformed when local models run behind Ollama, LM Studio or llama.cpp.',
      match: /tool[- ]?call|function[- ]call|tool[- ]use|\bmcps?\b/i,
      offering: 0,
      move: {
        title: 'Checklist: making tool calls work with local models',
        body: 'Write a checklist covering chat templates, --jinja, parser settings and model choice, with a tiny test script that proves tool calls round-trip before wiring up an agent.',
      },
    },
    {
      key: 'templates',
      title: 'Chat template and reasoning-tag glitches',
      summary: 'Wrong chat templates leak thinking tags, break stop tokens or make new models look broken on day one.',
      match: /chat template|jinja|\btemplates?\b|<think>|thinking tags?|harmony|reasoning (?:output|tokens?)|stop token/i,
      offering: 0,
      move: {
        title: 'Explainer: why a new model looks broken on day one',
        body: 'Explain how chat templates, special tokens and reasoning formats break in the first week after a release, and list the three things to check before blaming the weights.',
      },
    },
    {
      key: 'amd',
      title: 'AMD and ROCm support gaps',
      summary: 'AMD owners fight ROCm versions, unsupported cards and Vulkan-versus-ROCm speed differences.',
      match: /\brocm\b|\bamd\b|radeon|\bvulkan\b|\bmi50\b|\b7900 ?xtx\b|strix/i,
      offering: 1,
      move: {
        title: 'Field report: ROCm vs Vulkan on consumer AMD cards',
        body: 'Run the same models on ROCm and Vulkan builds across two AMD cards, publish tokens/s and setup time, and note which card and driver combinations to avoid.',
      },
    },
    {
      key: 'apple',
      title: 'Apple Silicon speed ceilings',
      summary: 'Macs load huge models in unified memory but prompt processing and large-context speed disappoint.',
      match: /\bmacs?\b|macbook|mac studio|\bm[1-4] (?:max|ultra|pro)\b|apple|unified memory|\bmlx\b/i,
      offering: 0,
      move: {
        title: 'Mac vs GPU: where unified memory stops paying off',
        body: 'Compare an M-series Mac against a single and a dual GPU box on generation and prompt-processing speed, and show the context length where the Mac falls behind.',
      },
    },
    {
      key: 'multi-gpu',
      title: 'Multi-GPU rigs that do not scale',
      summary: 'Adding a second or fourth GPU brings PCIe, splitting and tensor-parallel headaches instead of linear speed.',
      match: /multi[- ]?gpu|tensor[- ]parallel|\btp\b|two gpus|[2-8]x ?(?:3090|4090|5090|mi50|p40)|dual (?:gpu|card)|across (?:gpus|cards)|pcie|risers?/i,
      offering: 1,
      move: {
        title: 'Guide: what a second GPU really buys you',
        body: 'Measure one, two and four GPUs with layer split versus tensor parallelism, include PCIe lane counts, and state plainly when renting a pool beats building one.',
      },
    },
    {
      key: 'offload',
      title: 'Slow CPU and RAM offloading',
      summary: 'Once layers spill into system RAM, speed collapses and tuning offload flags becomes guesswork.',
      match: /offload|\bcpu\b|system ram|\bddr[45]\b|n-cpu-moe|\bram\b/i,
      offering: 2,
      move: {
        title: 'Cheat sheet: offload flags that actually help',
        body: 'Explain -ngl, --n-cpu-moe and tensor overrides with before/after tokens/s on one mid-range GPU, and show how much RAM bandwidth limits the result.',
      },
    },
    {
      key: 'vram',
      title: 'VRAM limits for 70B and larger models',
      summary: 'Models that matter do not fit in 8–24 GB of VRAM, and out-of-memory errors appear without a clear reason.',
      match: /\bvram\b|\bOOM\b|out of memory|doesn['’]?t fit|won['’]?t fit|\b(?:8|12|16|24) ?gb\b|not enough (?:vram|memory)|memory (?:limit|usage)/i,
      offering: 2,
      move: {
        title: 'Calculator post: what fits in 8, 16, 24 and 48 GB',
        body: 'Publish a table of model size, quant and context length that fits each VRAM tier, including KV-cache overhead, and link a calculator people can reuse.',
      },
    },
    {
      key: 'context',
      title: 'Context length eating memory and quality',
      summary: 'Long contexts blow up KV-cache memory and models forget or degrade well before their advertised window.',
      match: /kv[- ]?cache|context (?:length|size|window)|\bnum_ctx\b|\bctx\b|\b(?:8|16|32|64|128)k\b|long context/i,
      offering: 0,
      move: {
        title: 'Explainer: the real cost of a 128k context',
        body: 'Show KV-cache memory per 1k tokens for three popular models, the effect of quantized KV cache, and where answer quality starts to drop on a simple recall test.',
      },
    },
    {
      key: 'tokens-per-second',
      title: 'Low tokens-per-second generation',
      summary: 'Generation crawls at a few tokens per second and people cannot tell which setting is to blame.',
      match: /tok(?:en)?s?\/s(?:ec)?|\bt\/s\b|tokens? (?:per|a) second|\btps\b|generation speed|inference speed|generation is|token generation/i,
      offering: 2,
      move: {
        title: 'Troubleshooting tree: why am I getting 3 tokens/s?',
        body: 'Turn the common causes (partial offload, wrong backend, power limits, thermal throttling, oversized context) into a flowchart with the one command that confirms each.',
      },
    },
    {
      key: 'quantization',
      title: 'Confusing quantization trade-offs',
      summary: 'Choosing between Q4, Q8, AWQ, EXL and friends is guesswork, and low quants quietly cost quality.',
      match: /\bquant(?:s|ized|ization|isation|ised|izing)?\b|\bq[2-8](?:_k)?\b|\bgguf\b|\bawq\b|\bgptq\b|\bexl[23]\b|\bfp8\b|\bbf16\b|\bmxfp4\b|\bimatrix\b/i,
      offering: 2,
      move: {
        title: 'Side-by-side: the same model at Q3, Q4, Q6 and Q8',
        body: 'Run one model at four quant levels on the same prompts, publish size, speed and a short quality check for each, and say which level you would pick per VRAM tier.',
      },
    },
    {
      key: 'moe',
      title: 'Big MoE releases that underwhelm',
      summary: 'New mixture-of-experts releases are huge to download and host, and many disappoint for their size once people try them.',
      match: /\bmoe\b|\bexperts?\b|\ba3b\b|\ba22b\b|active param/i,
      offering: 1,
      move: {
        title: 'Hands-on: this month’s big MoE releases on real tasks',
        body: 'Run the new MoE releases side by side on a rented multi-GPU pool, publish quality and speed on the same tasks, and say which ones are worth a 100 GB download.',
      },
    },
    {
      key: 'install',
      title: 'Painful installs and builds',
      summary: 'CUDA versions, drivers, Python dependencies and source builds eat evenings before the first token.',
      match: /install|compil|build(?:ing)? (?:it |from )|\bcuda\b|drivers?\b|dependenc|\bpip\b|python|docker|\bbuild\b/i,
      offering: 0,
      move: {
        title: 'Walkthrough: zero to first token in 15 minutes',
        body: 'Record a clean install on a fresh machine, list every version that matters (driver, CUDA, Python), and publish the exact commands plus the three errors people hit most.',
      },
    },
    {
      key: 'windows',
      title: 'Windows-specific breakage',
      summary: 'Windows users hit WSL quirks, driver mismatches and tools that only half support their OS.',
      match: /\bwindows\b|\bwsl2?\b/i,
      offering: 0,
      move: {
        title: 'Windows survival guide for local LLMs',
        body: 'Compare native Windows builds against WSL2 for the main runtimes, note which features break where, and give a tested setup for each GPU vendor.',
      },
    },
    {
      key: 'hardware-cost',
      title: 'GPU prices blocking upgrades',
      summary: 'The hardware needed for bigger models costs thousands, and used-market bets feel risky.',
      match: /\b(?:gpus?|cards?|hardware|rigs?|vram|[345]090|mac studio|builds?)\b[^.]{0,60}(?:price|expensive|\bcosts?\b|afford|\$\s?\d)|(?:price|expensive|\bcosts?\b|afford|\$\s?\d)[^.]{0,60}\b(?:gpus?|cards?|hardware|rigs?|vram|[345]090|mac studio|builds?)\b/i,
      offering: 1,
      move: {
        title: 'Rent vs buy: the break-even for a 2×3090 box',
        body: 'Work through purchase, power and resale of a typical home rig against hourly GPU rental at realistic usage levels, and show the break-even month.',
      },
    },
    {
      key: 'power',
      title: 'Power draw, heat and noise',
      summary: 'Home inference rigs run hot, loud and expensive on electricity, especially with several GPUs.',
      match: /power (?:draw|usage|consumption|limit|bill|supply|mode|requirements?)|idle power|\bwatts?\b|\d+ ?w\b|\bheat|noise|noisy|\bloud\b|\bfans?\b|electricity|\bpsu\b|thermal|cooling/i,
      offering: 1,
      move: {
        title: 'Measured: what your inference rig costs in electricity',
        body: 'Log wall power for idle, prefill and generation on two rigs, convert to monthly cost at common tariffs, and show how power limits trade speed for watts.',
      },
    },
    {
      key: 'repetition',
      title: 'Repetition and looping outputs',
      summary: 'Models repeat themselves, loop forever or dissolve into word salad in long sessions.',
      match: /repeat|repetit|\bloops?\b|looping|word salad|gibberish|garbage output/i,
      offering: null,
      move: {
        title: 'Fixing loops: sampler settings that stop repetition',
        body: 'Show a looping transcript, then the same prompt with corrected sampler settings and template, explaining what each setting (repeat penalty, DRY, min-p) changes.',
      },
    },
    {
      key: 'hallucination',
      title: 'Hallucinations from small models',
      summary: 'Small and heavily quantized models make facts up confidently, which makes them hard to trust.',
      match: /hallucinat|makes? (?:stuff|things) up|made up|confidently wrong/i,
      offering: null,
      move: {
        title: 'When a bigger model is cheaper than a wrong answer',
        body: 'Compare hallucination rates of a small local model and a larger hosted one on a fixed fact set, and discuss when grounding or a bigger model is worth it.',
      },
    },
    {
      key: 'refusals',
      title: 'Over-refusal and heavy safety tuning',
      summary: 'Models refuse harmless requests or spend their reasoning on policy checks instead of the task.',
      match: /refus|censor|safety|guardrail|jailbreak/i,
      offering: null,
      move: {
        title: 'Roundup: how refusal rates differ across open models',
        body: 'Test a fixed set of harmless-but-edgy prompts across popular open models, publish refusal rates, and explain how system prompts and fine-tunes change them.',
      },
    },
    {
      key: 'api-limits',
      title: 'Hosted APIs that fall short',
      summary: 'Hosted APIs are slow, rate-limited, priced per token or incompatible with local tools, so people keep juggling providers.',
      match: /rate[- ]limit|\bapi\b|subscription|per token|\bcredits?\b|\bquota\b|pricing/i,
      offering: 0,
      move: {
        title: 'Owning the endpoint: predictable cost without rate limits',
        body: 'Compare a month of typical usage on per-token APIs against a dedicated endpoint, including rate-limit incidents, and show when a fixed price wins.',
      },
    },
    {
      key: 'privacy',
      title: 'Privacy worries about hosted AI',
      summary: 'People run models locally because they do not trust where prompts, logs and accounts end up.',
      match: /privacy|telemetry|closed[- ]source (?:gui|app|ui|code)|private its|data (?:leak|retention|collection)|sign[- ]?in|user accounts?|tracking/i,
      offering: 0,
      move: {
        title: 'Our data policy in plain words',
        body: 'Publish a one-page policy stating what is logged, for how long, and who can see it, with the same clarity people expect from running models at home.',
      },
    },
    {
      key: 'concurrency',
      title: 'Serving many users at once',
      summary: 'A single-user setup falls over when a team or an app sends parallel requests.',
      match: /concurren|\bbatch|throughput|parallel requests|multiple users|\brps\b|\bscal(?:e|ing)\b/i,
      offering: 1,
      move: {
        title: 'Load test: one GPU, 1 to 32 concurrent users',
        body: 'Load-test llama.cpp and vLLM on the same GPU with rising concurrency, plot latency and throughput, and show where each setup stops being usable.',
      },
    },
    {
      key: 'storage',
      title: 'Huge downloads and disk churn',
      summary: 'Models weigh tens to hundreds of gigabytes, so trying a new release means long downloads and full disks.',
      match: /download|\bdisk\b|storage|nvme|\bssd\b|hugging ?face|\bhf\b/i,
      offering: 2,
      move: {
        title: 'Try before you download: testing a 200 GB model in the browser',
        body: 'Show how to evaluate a new release on a hosted endpoint first, and list the download sizes of this month’s popular models at each quant.',
      },
    },
    {
      key: 'support-lag',
      title: 'Waiting for runtime support of new models',
      summary: 'New architectures land before the runtimes support them, leaving people waiting on PRs and GGUF conversions.',
      match: /not (?:yet |fully )?supported|unsupported|support for (?:the )?(?:new|newest|latest)|(?:no|lacks?|missing) support|\bPRs?\b|\bmerged?\b|waiting for (?:support|the pr|ggufs?|llama\.cpp)|day[- ]one/i,
      offering: 0,
      move: {
        title: 'Launch-day tracker: which runtimes support which new models',
        body: 'Maintain a public table of new releases and their support status in llama.cpp, vLLM, Ollama and LM Studio, updated as PRs merge.',
      },
    },
    {
      key: 'frontends',
      title: 'Clunky chat front-ends',
      summary: 'Front-ends hide settings, break with new backends or lack features people expect from ChatGPT.',
      match: /\bui\b|interface|open ?webui|web ?ui|front[- ]?end|\bgui\b/i,
      offering: 0,
      move: {
        title: 'Guide: pairing a good front-end with any endpoint',
        body: 'Compare Open WebUI, SillyTavern and two terminal clients against an OpenAI-compatible endpoint, covering setup, settings exposure and what breaks.',
      },
    },
    {
      key: 'rag',
      title: 'RAG pipelines that miss the point',
      summary: 'Retrieval over your own documents returns the wrong chunks or weak embeddings, so answers stay generic.',
      match: /\brag\b|embedding|retriev|vector (?:search|db|store)|\bdocuments?\b|knowledge base/i,
      offering: null,
      move: {
        title: 'Debugging RAG: is it retrieval or the model?',
        body: 'Walk through a failing RAG query, show how to test retrieval on its own, and compare two embedding models on the same document set.',
      },
    },
    {
      key: 'overthinking',
      title: 'Reasoning models overthinking',
      summary: 'Thinking models burn thousands of tokens and minutes of latency on simple questions.',
      match: /overthink|thinks? (?:too|for)|thinking (?:for|too|mode|budget|tokens|process)|reasoning (?:tokens|budget|effort|mode|for|process)|(?:long|endless) (?:thinking|reasoning)/i,
      offering: null,
      move: {
        title: 'Measured: what thinking mode costs in latency',
        body: 'Time the same tasks with reasoning on and off across three models, report tokens spent and accuracy, and show how to cap the reasoning budget.',
      },
    },
    {
      key: 'coding',
      title: 'Local coding models falling short',
      summary: 'Local models still trail hosted ones for real coding work, especially inside agents and IDE plugins.',
      match: /\bcod(?:e|ing|er)\b|\bagents?\b|agentic|\bide\b|vs ?code|cline|\broo\b|aider|continue\.dev/i,
      offering: 1,
      move: {
        title: 'Case study: a local coding agent on a real repo',
        body: 'Give a local model and a hosted one the same three repo tasks in one agent, and publish success rate, time and cost per task with the exact setup used.',
      },
    },
    {
      key: 'updates',
      title: 'Updates that break working setups',
      summary: 'A runtime or model update silently changes behaviour, speed or compatibility for setups that used to work.',
      match: /(?:after|since|with) (?:the |an? |this )?(?:latest |recent |new )?(?:update|upgrade)|update (?:broke|broken)|new version|regression|latest version|broke (?:after|since)/i,
      offering: 0,
      move: {
        title: 'Pinning versions: keeping a local stack stable',
        body: 'Explain how to pin runtime and model versions, test an update before rolling it out, and roll back when speed or output quality changes.',
      },
    },
  ],
  competitorThemes: [
    { product: 'Ollama', title: 'Ollama: hidden defaults and closed pieces', summary: 'Ollama users complain about small default contexts, lagging model support and the closed-source GUI and sign-in.' },
    { product: 'LM Studio', title: 'LM Studio: bugs with new models', summary: 'LM Studio users report template and engine bugs when new models land, and want more control than the app exposes.' },
    { product: 'vLLM', title: 'vLLM: hard to run on consumer GPUs', summary: 'vLLM is fast on servers but people struggle to configure it on one or two consumer GPUs.' },
    { product: 'llama.cpp', title: 'llama.cpp: flag soup for newcomers', summary: 'llama.cpp is the fastest route to new models, but newcomers find its many flags and builds intimidating.' },
  ],
};

const EVALKIT: ProjectSpec = {
  id: 'prj_demo_devtools',
  name: 'EvalKit',
  url: 'https://evalkit.example.dev',
  category: 'Developer tools',
  description:
    'A CLI and dashboard for running and evaluating models side by side: the same prompt suites against Ollama, llama.cpp, vLLM and hosted APIs, with fixed sampler settings, regression diffs and tool-call tests.',
  idealCustomer:
    'Engineers choosing or shipping an open-weight model who do not trust leaderboards and need repeatable, task-specific comparisons across models, quants and runtimes.',
  competitors: [
    { name: 'LMArena', url: 'https://lmarena.ai', description: 'Crowd-voted public leaderboard of chat models.' },
    { name: 'promptfoo', url: 'https://www.promptfoo.dev', description: 'Open-source CLI for testing and red-teaming prompts and models.' },
    { name: 'lm-evaluation-harness', url: 'https://github.com/EleutherAI/lm-evaluation-harness', description: 'EleutherAI framework for academic benchmarks.' },
  ],
  offerings: [
    {
      name: 'Side-by-side runner',
      description: 'Runs one prompt suite across local runtimes and hosted APIs with pinned sampler settings and templates.',
      pitch: 'EvalKit runs your own prompts against every model, quant and runtime you care about with pinned sampler settings, so differences come from the model and not the setup.',
    },
    {
      name: 'Regression diffs',
      description: 'Compares a new model, quant or runtime version against last week’s results and flags what got worse.',
      pitch: 'EvalKit diffs each new model, quant or runtime version against your last run and flags the prompts that got worse before you switch.',
    },
    {
      name: 'Tool-call test packs',
      description: 'Ready-made suites that check tool calling, JSON output and agent steps across models.',
      pitch: 'EvalKit’s tool-call packs check function calling, JSON validity and multi-step agent runs on any endpoint in one command.',
    },
  ],
  communities: [{ name: 'LocalLLaMA', description: 'r/LocalLLaMA: model comparisons, benchmarks and coding-agent reports.' }],
  filterRules: ['Ignore memes and image-only posts.', 'Ignore hardware buying advice unless it compares model quality.'],
  createdOffsetHours: 0,
  limits: { perTheme: 8, perPost: 3, perProduct: 6, content: 8 },
  painThemes: [
    {
      key: 'benchmarks',
      title: 'Benchmarks that do not match real use',
      summary: 'Models top public benchmarks and leaderboards, then disappoint on people’s own tasks.',
      match: /benchmark|leaderboard|\bscores?\b|benchmaxx|\bmmlu\b|\baime\b|\bgpqa\b|arena/i,
      offering: 0,
      move: {
        title: 'Build your own benchmark in an afternoon',
        body: 'Show how to turn 30 real prompts from your own work into a repeatable eval, and compare its ranking of five models with the public leaderboard.',
      },
    },
    {
      key: 'tool-calling',
      title: 'Unreliable tool calling across models',
      summary: 'Tool calls that work with one model or runtime fail or come back malformed with another.',
      match: /tool[- ]?call|function[- ]call|tool[- ]use|\bmcps?\b/i,
      offering: 2,
      move: {
        title: 'Tool-calling scorecard for popular open models',
        body: 'Run a fixed tool-calling suite against six models on two runtimes and publish pass rates, common failure modes and the template fixes that helped.',
      },
    },
    {
      key: 'agents',
      title: 'Coding agents that create cleanup work',
      summary: 'Coding agents with local models loop, edit the wrong files or need so much review that they save little time.',
      match: /\bagents?\b|agentic|cline|\broo\b|aider|claude code|qwen code|cursor|copilot|continue/i,
      offering: 2,
      move: {
        title: 'Measured: do coding agents save time?',
        body: 'Time ten real tickets with and without an agent, record review and fix-up time, and show which model and agent pairs came out ahead.',
      },
    },
    {
      key: 'coding-quality',
      title: 'Code quality varies wildly by model',
      summary: 'The same coding prompt gives working code from one model and broken code from another with no easy way to compare.',
      match: /\bcod(?:e|ing|er)\b|programming|python|javascript/i,
      offering: 0,
      move: {
        title: 'Coding shoot-out with tests, not vibes',
        body: 'Give five models the same small coding tasks with unit tests, publish pass rates and runtime, and share the harness so readers can rerun it.',
      },
    },
    {
      key: 'hallucination',
      title: 'Hallucinations nobody measures',
      summary: 'People notice models inventing facts but have no systematic way to measure how often it happens.',
      match: /hallucinat|makes? (?:stuff|things) up|made up|confidently wrong|wrong answers?/i,
      offering: 0,
      move: {
        title: 'A simple hallucination check you can automate',
        body: 'Build a fixed set of questions with known answers, score several models automatically, and show how quantization and system prompts change the rate.',
      },
    },
    {
      key: 'quant-quality',
      title: 'Hidden quality loss from quantization',
      summary: 'Lower quants look fine in chat but lose accuracy in ways that only show up on harder tasks.',
      match: /\bquant(?:s|ized|ization|isation|ised|izing)?\b|\bq[2-8](?:_k)?\b|\bgguf\b|\bawq\b|\bfp8\b|\bbf16\b|\bmxfp4\b|lobotom|brain damage/i,
      offering: 1,
      move: {
        title: 'How much does Q4 really cost? A measured answer',
        body: 'Evaluate one model at four quant levels on reasoning, coding and recall tasks, and publish where the accuracy drop starts to matter.',
      },
    },
    {
      key: 'runtime-differences',
      title: 'Runtime quirks that muddy comparisons',
      summary: 'Ollama, llama.cpp, LM Studio and vLLM each behave differently, so results depend on the setup as much as on the model.',
      match: /ollama|llama\.cpp|lm ?studio|vllm|openrouter|provider|runtime|backend/i,
      offering: 0,
      move: {
        title: 'One model, four runtimes: why outputs differ',
        body: 'Run the same model and prompts through four runtimes, diff the outputs, and trace each difference to templates, samplers or quantization.',
      },
    },
    {
      key: 'samplers',
      title: 'Sampler settings guesswork',
      summary: 'Temperature, top-p, min-p and penalties change results a lot, and recommended values are scattered.',
      match: /temperature|\btemp\b|\btop[_ -]?[pk]\b|\bmin[_ -]?p\b|sampler|sampling|penalty/i,
      offering: 0,
      move: {
        title: 'Sampler sweep: what temperature does to accuracy',
        body: 'Sweep temperature and min-p on a fixed task set for three models, chart accuracy and variance, and publish the settings that held up.',
      },
    },
    {
      key: 'instructions',
      title: 'Models ignoring instructions',
      summary: 'Models drift from system prompts, ignore formatting rules or answer a different question.',
      match: /instruction|system prompt|ignor(?:es|ed|ing)\b|(?:doesn['’]?t|won['’]?t|not) follow/i,
      offering: 0,
      move: {
        title: 'Instruction-following tests that catch drift',
        body: 'Write ten instruction-following checks with automatic scoring, run them across models and turns, and show where each model starts to drift.',
      },
    },
    {
      key: 'regressions',
      title: 'Regressions between model versions',
      summary: 'A new release or fine-tune feels worse than the old one, but nobody can say where exactly.',
      match: /regression|worse than (?:the )?(?:old|previous|original|last)|new version|dumber|downgrade|previous version|after (?:the |an )?update/i,
      offering: 1,
      move: {
        title: 'Regression report: old vs new release on the same suite',
        body: 'Run last month’s and this month’s versions of a popular model on the same suite and publish a prompt-by-prompt diff of what improved and what broke.',
      },
    },
    {
      key: 'context-recall',
      title: 'Long-context recall falls apart',
      summary: 'Models advertise huge context windows but lose track of details long before the limit.',
      match: /long context|context (?:length|window|limit)|\b(?:32|64|128)k\b|forgets\b|needle|loses? track/i,
      offering: 0,
      move: {
        title: 'Needle tests at 8k, 32k and 128k',
        body: 'Run recall tests at three context sizes across four models and publish where each one starts missing facts.',
      },
    },
    {
      key: 'overthinking',
      title: 'Reasoning models overthinking',
      summary: 'Thinking modes burn tokens and time without reliably improving answers.',
      match: /overthink|thinks? (?:too|for)|thinking (?:for|too|mode|budget|tokens|process)|reasoning (?:tokens|budget|effort|mode|for|process)|(?:long|endless) (?:thinking|reasoning)/i,
      offering: 0,
      move: {
        title: 'Does thinking mode pay off? Accuracy per token',
        body: 'Compare reasoning on and off across a task suite, report accuracy per thousand tokens, and show which tasks actually benefit.',
      },
    },
    {
      key: 'repetition',
      title: 'Repetition and looping outputs',
      summary: 'Models loop or repeat themselves in longer generations, which breaks automated runs.',
      match: /repeat|repetit|\bloops?\b|looping|word salad|gibberish/i,
      offering: 1,
      move: {
        title: 'Catching loops automatically in eval runs',
        body: 'Show a detector for repeated n-grams in outputs, the loop rate per model and setting, and which sampler changes removed it.',
      },
    },
    {
      key: 'structured-output',
      title: 'Broken JSON and structured output',
      summary: 'Models wrap, truncate or invent fields in JSON and XML output, which breaks any pipeline that parses it.',
      match: /\bjson\b|\bxml\b|structured output|\bschema\b|\bformat(?:ting|ted)?\b/i,
      offering: 2,
      move: {
        title: 'Which models return valid JSON? A 500-call test',
        body: 'Send the same schema-bound requests to six models with and without grammar constraints, publish the valid-output rate, and show the failure patterns.',
      },
    },
    {
      key: 'refusals',
      title: 'Refusals that skew evaluations',
      summary: 'Heavily safety-tuned models refuse ordinary tasks, so scores reflect policy as much as ability.',
      match: /refus|censor|safety|guardrail|rejection/i,
      offering: 0,
      move: {
        title: 'Refusal rate as a first-class eval metric',
        body: 'Add a refusal column to your comparisons: run 50 harmless-but-edgy prompts per model, count refusals, and show how they change the overall ranking.',
      },
    },
    {
      key: 'model-choice',
      title: 'Too many models to choose from',
      summary: 'New releases land weekly and people cannot tell which model suits their task without testing each one by hand.',
      match: /which (?:one|model)|too many (?:models|options)|hard to (?:choose|pick|know|tell)|overwhelm|keep up|new models? every/i,
      offering: 0,
      move: {
        title: 'A 30-minute shortlist process for picking a model',
        body: 'Show how to cut this month’s releases to three candidates with a quick task suite, then compare those three properly before committing.',
      },
    },
    {
      key: 'slow-iteration',
      title: 'Slow local inference stalls testing',
      summary: 'When local generation crawls, trying a model on real tasks takes hours, so people test less than they should.',
      match: /\bslow|\bspeed|tok(?:en)?s?\/s|\bt\/s\b|takes? (?:forever|ages|hours|minutes)/i,
      offering: 0,
      move: {
        title: 'Faster evals: batching and caching on one GPU',
        body: 'Show how batching, prompt caching and a smaller judge model cut an eval run from hours to minutes on a single GPU.',
      },
    },
  ],
  competitorThemes: [
    { product: 'Claude', title: 'Claude: the bar local models get measured against', summary: 'People compare every local coding model with Claude and complain when nothing local comes close.' },
    { product: 'Ollama', title: 'Ollama: defaults that skew comparisons', summary: 'Ollama’s default context and quant choices make models look worse than they are in side-by-side tests.' },
    { product: 'ChatGPT', title: 'ChatGPT: the default people leave and come back to', summary: 'ChatGPT is the reference experience; people weigh its limits and costs against local models.' },
  ],
};

/**
 * Threads titled around judging models belong to EvalKit only; Quantforge gets the rest (runtimes
 * and hardware). EvalKit also watches threads whose body is about comparing models, so those few
 * appear in both projects, as they would for two real projects watching one community.
 */
const EVAL_TITLE =
  /bench|eval|leaderboard|arena|\bvs\.?\b|versus|compar|coding|coder|\bcode\b|agent|tool|test|hallucinat|which (?:model|llm)|best (?:local )?(?:model|llm)|smart|quality|lobotom|worse|better/i;
const EVAL_BODY = /benchmark|evaluat|leaderboard|compar|tool[- ]?call|\bagents?\b|coding|hallucinat|\bbest model/i;

// ---------------------------------------------------------------------------------------------
// Fixture access
// ---------------------------------------------------------------------------------------------

function loadThreads(): BundlePost[] {
  return JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as BundlePost[];
}

/** One piece of text with its author: the post body or one comment. */
interface TextUnit {
  key: string;
  post: BundlePost;
  author: string;
  text: string;
  score: number;
  at: string;
}

function textUnits(post: BundlePost): TextUnit[] {
  const units: TextUnit[] = [
    { key: post.id, post, author: post.author, text: post.selftext, score: post.score, at: post.postCreatedAt },
  ];
  const walk = (comments: BundleComment[]): void => {
    for (const c of comments) {
      units.push({ key: c.id, post, author: c.author, text: c.body, score: c.score, at: c.createdAt });
      walk(c.replies);
    }
  };
  walk(post.comments);
  return units.filter((u) => u.author !== '[deleted]' && u.text !== '');
}

const QUOTE_MIN = 40;
const QUOTE_MAX = 360;

/**
 * Quotable sentences of a body, each an exact substring of it. Quoted lines (">"), tables, code
 * and link-heavy lines are skipped: they are someone else's words or render badly in a brief.
 * A short sentence is joined with the next one so the quote keeps its context.
 */
function quotableSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/^\s*(?:[-*+]|\d+[.)]|#+)\s+/, '');
    if (/^\s*(?:>|\||\s{4})/.test(rawLine) || /https?:|\]\(|`|\*\*|__|~~|\|/.test(line)) continue;
    // Sentence spans as [start, end) offsets into the line; "llama.cpp" does not end a sentence.
    const spans = [...line.matchAll(/(?:[^.!?]|[.!?](?=\S))+(?:[.!?]+["”')\]]*|$)/g)]
      .map((m) => trimSpan(line, m.index, m.index + m[0].length))
      .filter(([s, e]) => e > s);
    spans.forEach(([start, end], i) => {
      const next = spans[i + 1];
      const stop = end - start < 80 && next && next[1] - start <= QUOTE_MAX ? next[1] : end;
      const quote = line.slice(start, stop);
      if (quote.length >= QUOTE_MIN && quote.length <= QUOTE_MAX && /^[A-Z0-9"“'(]/.test(quote)) out.push(quote);
    });
  }
  return out;
}

function trimSpan(line: string, start: number, end: number): [number, number] {
  while (start < end && /\s/.test(line[start]!)) start++;
  while (end > start && /\s/.test(line[end - 1]!)) end--;
  return [start, end];
}

// ---------------------------------------------------------------------------------------------
// Deterministic ids and dates
// ---------------------------------------------------------------------------------------------

type Prefix = 'sov' | 'sig' | 'brf' | 'run';

/** Same shape as domain/ids.ts newId, but from a hash so re-imports upsert the same rows. */
function stableId(prefix: Prefix, ...parts: string[]): string {
  return `${prefix}_${base32(createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16))}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const isoAt = (ms: number): string => new Date(ms).toISOString();
const dayLabel = (ms: number): string => {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
};

/** The demo's "now": the hour after the newest post, so the last window contains it. */
function anchorOf(threads: BundlePost[]): number {
  const newest = Math.max(...threads.map((t) => Date.parse(t.postCreatedAt)));
  return Math.ceil(newest / HOUR) * HOUR;
}

interface Window {
  start: number;
  end: number;
}

/** Seven daily windows, oldest first, the last ending at the anchor. */
function briefWindows(anchor: number): Window[] {
  return Array.from({ length: BRIEF_DAYS }, (_, i) => {
    const end = anchor - (BRIEF_DAYS - 1 - i) * DAY;
    return { start: end - DAY, end };
  });
}

/** Code-unit order: unlike localeCompare it cannot vary with the machine's ICU data. */
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const inWindow = (at: string, w: Window): boolean => {
  const t = Date.parse(at);
  return t >= w.start && t < w.end;
};

// ---------------------------------------------------------------------------------------------
// Signal extraction
// ---------------------------------------------------------------------------------------------

/** A signal plus what briefs need to rank and cite it. */
interface Mined {
  signal: BundleSignal;
  post: BundlePost;
  score: number;
  theme: PainThemeSpec | null;
}

interface Candidate {
  unit: TextUnit;
  quote: string;
}

function candidates(threads: BundlePost[], anchor: number): Candidate[] {
  const out: Candidate[] = [];
  for (const post of threads) {
    for (const unit of textUnits(post)) {
      if (Date.parse(unit.at) > anchor) continue; // the demo's digests never saw later comments
      for (const quote of quotableSentences(unit.text)) out.push({ unit, quote });
    }
  }
  // Best-received text first; ties broken by stable keys so the order never depends on input order.
  return out.sort((a, b) => b.unit.score - a.unit.score || cmp(a.unit.key, b.unit.key) || cmp(a.quote, b.quote));
}

/** Caps that spread signals over themes, posts and comments instead of piling onto one thread. */
class Quota {
  private counts = new Map<string, number>();
  has(key: string, max: number): boolean {
    return (this.counts.get(key) ?? 0) < max;
  }
  take(...keys: string[]): void {
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }
}

/**
 * Quotes already used in a project. A sentence and its two-sentence extension overlap, and the same
 * line is sometimes pasted twice, so both exact repeats and overlaps within one text are refused.
 */
class TakenQuotes {
  private all = new Set<string>();
  private byUnit = new Map<string, string[]>();
  has(unitKey: string, quote: string): boolean {
    if (this.all.has(quote)) return true;
    return (this.byUnit.get(unitKey) ?? []).some((q) => q.includes(quote) || quote.includes(q));
  }
  add(unitKey: string, quote: string): void {
    this.all.add(quote);
    this.byUnit.set(unitKey, [...(this.byUnit.get(unitKey) ?? []), quote]);
  }
}

function painMove(spec: PainThemeSpec, post: BundlePost, author: string): { title: string; body: string } {
  return {
    title: spec.move.title,
    body: `${spec.move.body} Open with the situation ${author} described in "${post.title}" and link back to the thread (${post.url}).`,
  };
}

function minePain(project: ProjectSpec, pool: Candidate[], themeIds: Map<string, string>, used: TakenQuotes): Mined[] {
  const quota = new Quota();
  const mined: Mined[] = [];
  for (const { unit, quote } of pool) {
    if (used.has(unit.key, quote) || !isComplaint(quote)) continue;
    const theme = project.painThemes.find((t) => t.match.test(quote));
    if (!theme || !quota.has(`t:${theme.key}`, project.limits.perTheme)) continue;
    if (!quota.has(`p:${unit.post.id}`, project.limits.perPost) || !quota.has(`u:${unit.key}`, 1)) continue;
    quota.take(`t:${theme.key}`, `p:${unit.post.id}`, `u:${unit.key}`);
    used.add(unit.key, quote);
    mined.push({
      post: unit.post,
      score: unit.score,
      theme,
      signal: {
        id: stableId('sig', project.id, 'pain', unit.key, quote),
        postId: unit.post.id,
        kind: 'pain',
        quote,
        author: unit.author,
        themeId: themeIds.get(theme.key)!,
        competitor: null,
        seenAt: unit.at,
        moves: { content: painMove(theme, unit.post, unit.author) },
      },
    });
  }
  return mined;
}

function mineCompetitors(project: ProjectSpec, pool: Candidate[], themeIds: Map<string, string>, used: TakenQuotes): Mined[] {
  const quota = new Quota();
  const mined: Mined[] = [];
  const themed = new Set(project.competitorThemes.map((t) => t.product));
  // Complaints about themed rivals go first: they are the evidence behind the competitor themes.
  for (const pass of ['complaints', 'opinions'] as const) {
    const cap = pass === 'complaints' ? Math.ceil(project.limits.perProduct / 2) : project.limits.perProduct;
    for (const { unit, quote } of pool) {
      const named = PRODUCTS.filter((p) => p.match.test(quote));
      // One product per quote keeps the attribution unambiguous.
      if (used.has(unit.key, quote) || named.length !== 1) continue;
      const product = named[0]!.name;
      // Only complaints describe a competitor's weakness; praise and comparisons stay unthemed.
      const weakness = themed.has(product) && isComplaint(quote);
      if (pass === 'complaints' ? !weakness : !OPINION.test(quote)) continue;
      if (!quota.has(product, cap) || !quota.has(`p:${unit.post.id}`, 2) || !quota.has(`u:${unit.key}`, 1)) continue;
      quota.take(product, `p:${unit.post.id}`, `u:${unit.key}`);
      used.add(unit.key, quote);
      mined.push({
        post: unit.post,
        score: unit.score,
        theme: null,
        signal: {
          id: stableId('sig', project.id, 'competitor', unit.key, quote),
          postId: unit.post.id,
          kind: 'competitor',
          quote,
          author: unit.author,
          themeId: weakness ? themeIds.get(`competitor:${product}`)! : null,
          competitor: product,
          seenAt: unit.at,
          moves: {},
        },
      });
    }
  }
  return mined;
}

/** Questions people ask in thread titles: raw material for FAQ-style content. */
function mineQuestions(project: ProjectSpec, threads: BundlePost[], anchor: number): Mined[] {
  return threads
    .filter((t) => QUESTION_TITLE.test(t.title) && t.title.length >= 25 && Date.parse(t.postCreatedAt) <= anchor)
    .sort((a, b) => b.score - a.score || cmp(a.id, b.id))
    .slice(0, project.limits.content)
    .map((post) => ({
      post,
      score: post.score,
      theme: null,
      signal: {
        id: stableId('sig', project.id, 'content', post.id),
        postId: post.id,
        kind: 'content' as const,
        quote: post.title,
        author: post.author,
        themeId: null,
        competitor: null,
        seenAt: post.postCreatedAt,
        moves: {
          content: {
            title: `Answer post: ${clip(post.title, 150)}`,
            body: `Write a direct, example-led answer to this question from r/${post.community}, then reply in the thread (${post.url}) with a short summary and the link.`,
          },
        },
      },
    }));
}

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

// ---------------------------------------------------------------------------------------------
// Themes, briefs, runs
// ---------------------------------------------------------------------------------------------

function themeIdsOf(project: ProjectSpec): Map<string, string> {
  const ids = new Map<string, string>();
  for (const t of project.painThemes) ids.set(t.key, stableId('sov', project.id, 'pain', t.key));
  for (const t of project.competitorThemes) ids.set(`competitor:${t.product}`, stableId('sov', project.id, 'competitor', t.product));
  return ids;
}

/** Themes with evidence only: a theme with fewer than two signals would look invented. */
function buildThemes(project: ProjectSpec, themeIds: Map<string, string>, mined: Mined[]): BundleTheme[] {
  const latest = (id: string, minimum: number): string | null => {
    const seen = mined.filter((m) => m.signal.themeId === id).map((m) => m.signal.seenAt).sort();
    return seen.length >= minimum ? seen[seen.length - 1]! : null;
  };
  const themes: BundleTheme[] = [];
  for (const t of project.painThemes) {
    const id = themeIds.get(t.key)!;
    const updatedAt = latest(id, 2);
    if (updatedAt) themes.push({ id, type: 'pain', title: t.title, summary: t.summary, updatedAt });
  }
  for (const t of project.competitorThemes) {
    const id = themeIds.get(`competitor:${t.product}`)!;
    const updatedAt = latest(id, 1);
    if (updatedAt) themes.push({ id, type: 'competitor', title: t.title, summary: t.summary, updatedAt });
  }
  return themes;
}

type Item = BundleBrief['sections'][number]['items'][number];

function itemFor(m: Mined, summary: string, origin: string, move: { title: string; body: string }): Item {
  return {
    origin,
    surfaced: { summary, quote: { text: m.signal.quote, who: m.signal.author, sub: m.post.community } },
    move,
    sources: [{ title: m.post.title, url: m.post.url, sub: m.post.community }],
  };
}

/**
 * Signals to feature for a window: those seen inside it first (best-received first), then the
 * most recent earlier ones, so a quiet day still gets a brief. Already-featured signals are skipped.
 */
function rankForWindow(mined: Mined[], w: Window, featured: Set<string>): Mined[] {
  const eligible = mined.filter((m) => !featured.has(m.signal.id) && Date.parse(m.signal.seenAt) < w.end);
  const inside = eligible
    .filter((m) => inWindow(m.signal.seenAt, w))
    .sort((a, b) => b.score - a.score || cmp(a.signal.id, b.signal.id));
  const before = eligible
    .filter((m) => !inWindow(m.signal.seenAt, w))
    .sort((a, b) => cmp(b.signal.seenAt, a.signal.seenAt) || cmp(a.signal.id, b.signal.id));
  return [...inside, ...before];
}

function contentItems(pains: Mined[], w: Window, featured: Set<string>): Mined[] {
  const ranked = rankForWindow(pains, w, featured);
  const insideThemes = new Set(ranked.filter((m) => inWindow(m.signal.seenAt, w)).map((m) => m.theme!.key)).size;
  const want = Math.min(4, Math.max(2, insideThemes));
  const picked: Mined[] = [];
  for (const m of ranked) {
    if (picked.length >= want) break;
    if (picked.some((p) => p.theme!.key === m.theme!.key)) continue;
    picked.push(m);
  }
  return picked;
}

/** A pain one of the offerings answers, from a theme the content section did not already cover. */
function offeringFit(project: ProjectSpec, pains: Mined[], w: Window, featured: Set<string>, taken: Mined[]): Item | null {
  const fit = rankForWindow(pains, w, featured).find(
    (m) => m.theme!.offering !== null && !taken.some((t) => t.theme!.key === m.theme!.key),
  );
  if (!fit) return null;
  featured.add(fit.signal.id);
  const offering = project.offerings[fit.theme!.offering!]!;
  return itemFor(fit, fit.theme!.summary, 'pain', {
    title: `Offer ${offering.name} where it fits`,
    body: `${offering.pitch} Answer the thread with measured numbers first and mention ${project.name} only as the way you got them.`,
  });
}

/** A complaint about a rival with a competitor theme: the opening to position the main offering. */
function rivalGap(project: ProjectSpec, competitors: Mined[], w: Window, featured: Set<string>): Item | null {
  const rival = rankForWindow(competitors.filter((m) => m.signal.themeId !== null), w, featured)[0];
  if (!rival) return null;
  featured.add(rival.signal.id);
  const product = rival.signal.competitor!;
  const theme = project.competitorThemes.find((t) => t.product === product)!;
  const offering = project.offerings[0]!;
  return itemFor(rival, theme.summary, 'competitor', {
    title: `Position ${offering.name} against ${product}`,
    body: `${offering.pitch} Acknowledge what ${product} does well, then show the specific gap this thread complains about.`,
  });
}

function buildBriefs(project: ProjectSpec, mined: Mined[], windows: Window[]): BundleBrief[] {
  const pains = mined.filter((m) => m.signal.kind === 'pain');
  const competitors = mined.filter((m) => m.signal.kind === 'competitor');
  const featured = new Set<string>();
  return windows.map((w) => {
    const content = contentItems(pains, w, featured);
    content.forEach((m) => featured.add(m.signal.id));
    const offers = [offeringFit(project, pains, w, featured, content), rivalGap(project, competitors, w, featured)];
    const label = `${dayLabel(w.start)} – ${dayLabel(w.end)}`;
    return {
      id: stableId('brf', project.id, isoAt(w.end)),
      window: label,
      windowStart: isoAt(w.start),
      windowEnd: isoAt(w.end),
      createdAt: isoAt(w.end + 7 * 60_000), // a digest finishes a few minutes after its window closes
      sections: [
        {
          kind: 'content',
          title: 'What people struggle with',
          items: content.map((m) => itemFor(m, m.theme!.summary, 'pain', m.signal.moves['content']!)),
        },
        { kind: 'offers', title: 'Where your offerings fit', items: offers.filter((i): i is Item => i !== null) },
      ],
    };
  });
}

function countsIn(mined: Mined[], threads: BundlePost[], w: Window): Pick<BundleRun, 'signalCounts' | 'postsAnalyzed'> {
  const signalCounts = { pain: 0, competitor: 0, content: 0 };
  for (const m of mined) if (inWindow(m.signal.seenAt, w)) signalCounts[m.signal.kind]++;
  const active = threads.filter((t) => inWindow(t.postCreatedAt, w) || textUnits(t).some((u) => inWindow(u.at, w)));
  return { signalCounts, postsAnalyzed: active.length };
}

/** A complete run per brief, the failed run the day before, and the next digest still running. */
function buildRuns(project: ProjectSpec, mined: Mined[], threads: BundlePost[], windows: Window[]): BundleRun[] {
  const run = (w: Window, status: BundleRun['status'], counts: Pick<BundleRun, 'signalCounts' | 'postsAnalyzed'>): BundleRun => ({
    id: stableId('run', project.id, isoAt(w.end)),
    windowStart: isoAt(w.start),
    windowEnd: isoAt(w.end),
    status,
    ...counts,
  });
  const first = windows[0]!;
  const last = windows[windows.length - 1]!;
  const idle = { signalCounts: { pain: 0, competitor: 0, content: 0 }, postsAnalyzed: 0 };
  return [
    run({ start: first.start - DAY, end: first.start }, 'failed', idle),
    ...windows.map((w) => run(w, 'complete', countsIn(mined, threads, w))),
    run({ start: last.end, end: last.end + DAY }, 'running', idle),
  ];
}

// ---------------------------------------------------------------------------------------------
// Assembly
// ---------------------------------------------------------------------------------------------

function buildProject(ownerEmail: string, project: ProjectSpec, threads: BundlePost[], anchor: number, createdBase: number): BundleProject {
  const themeIds = themeIdsOf(project);
  const pool = candidates(threads, anchor);
  const used = new TakenQuotes();
  const pains = minePain(project, pool, themeIds, used);
  const rivals = mineCompetitors(project, pool, themeIds, used);
  const mined = [...pains, ...rivals, ...mineQuestions(project, threads, anchor)];
  const windows = briefWindows(anchor);
  const themes = buildThemes(project, themeIds, mined);
  // A pain signal whose theme was dropped for thin evidence would dangle; drop it with the theme.
  const kept = mined.filter((m) => m.signal.themeId === null || themes.some((t) => t.id === m.signal.themeId));
  return {
    owner: ownerEmail,
    id: project.id,
    name: project.name,
    url: project.url,
    category: project.category,
    description: project.description,
    idealCustomer: project.idealCustomer,
    competitors: project.competitors,
    offerings: project.offerings.map(({ name, description }) => ({ name, description })),
    communities: project.communities,
    filterRules: project.filterRules,
    memoryStatus: 'ready',
    memoryRefreshRequestedAt: null,
    createdAt: isoAt(createdBase + project.createdOffsetHours * HOUR),
    posts: threads,
    themes,
    signals: kept.map((m) => m.signal),
    briefs: buildBriefs(project, kept, windows),
    runs: buildRuns(project, kept, threads, windows),
  };
}

/**
 * The `signals demo` bundle: Quantforge (prj_demo_inference, created last so it is the owner's
 * default project) and EvalKit (prj_demo_devtools), both owned by `ownerEmail`.
 */
export function buildDemoBundle(ownerEmail: string): Bundle {
  const threads = loadThreads();
  const anchor = anchorOf(threads);
  // Projects exist a few days before the oldest thread, at a plausible office hour.
  const oldest = Math.min(...threads.map((t) => Date.parse(t.postCreatedAt)));
  const createdBase = Math.floor(oldest / DAY) * DAY - 3 * DAY + 9 * HOUR;
  const evalThreads = threads.filter((t) => EVAL_TITLE.test(t.title) || EVAL_BODY.test(t.selftext));
  const inferenceThreads = threads.filter((t) => !EVAL_TITLE.test(t.title));
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    projects: [
      buildProject(ownerEmail, QUANTFORGE, inferenceThreads, anchor, createdBase),
      buildProject(ownerEmail, EVALKIT, evalThreads, anchor, createdBase),
    ],
  };
}
