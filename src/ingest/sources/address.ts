/**
 * Community addresses (DESIGN §8.1): a watched community's `name` says where to collect from.
 *
 *   r/NAME                              Reddit (reddit-api with app credentials, else reddit-rss)
 *   hn  |  hn: term, term               Hacker News through Algolia
 *   stackoverflow: tag, tag             Stack Overflow questions with those tags
 *   stackexchange:SITE: tag, tag        any Stack Exchange site (superuser, askubuntu, …)
 *   github: owner/repo                  a repository's issues
 *   discourse: https://forum.example.com[/c/category]
 *
 * A bare subreddit name (`LocalLLaMA`, as the demo's memory has it) is read as `r/LocalLLaMA`:
 * that is how people write subreddits and how the file source has always matched them. Anything
 * else is `unknown`, with the reason a run records for it.
 */

export type Address =
  | { kind: 'reddit'; subreddit: string }
  | { kind: 'hn'; terms: string[] }
  | { kind: 'stackexchange'; site: string; tags: string[] }
  | { kind: 'github'; owner: string; repo: string }
  | { kind: 'discourse'; base: string; category: string | null }
  | { kind: 'unknown'; reason: string };

/** Reddit's own rule for subreddit names. */
const SUBREDDIT = /^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/;
/** Stack Exchange API site parameters: `stackoverflow`, `superuser`, `dba`, `pt.stackoverflow`, … */
const SE_SITE = /^[a-z0-9][a-z0-9.-]{0,62}$/;
/** Stack Exchange tags: lower case letters, digits and `+ # . -`. */
const SE_TAG = /^[a-z0-9+#.-]{1,35}$/;
const GITHUB_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const MAX_TERMS = 10;

export function parseAddress(name: string): Address {
  const text = name.trim();
  const reddit = /^(?:https?:\/\/(?:www\.|old\.)?reddit\.com)?\/?r\/([^/\s]+)\/?$/i.exec(text);
  if (reddit) {
    return SUBREDDIT.test(reddit[1]!) ? { kind: 'reddit', subreddit: reddit[1]! } : unknown(`"${reddit[1]}" is not a subreddit name`);
  }
  const prefixed = /^([A-Za-z][A-Za-z0-9-]*)\s*:\s*(.*)$/s.exec(text);
  if (prefixed && !/^https?$/i.test(prefixed[1]!)) return parsePrefixed(prefixed[1]!.toLowerCase(), prefixed[2]!.trim());
  if (/^hn$/i.test(text)) return { kind: 'hn', terms: [] };
  if (SUBREDDIT.test(text)) return { kind: 'reddit', subreddit: text };
  return unknown('unknown community address: use r/NAME, hn, hn: term, stackoverflow: tag, github: owner/repo or discourse: https://forum…');
}

function parsePrefixed(prefix: string, rest: string): Address {
  switch (prefix) {
    case 'hn': {
      const terms = list(rest);
      if (terms.length > MAX_TERMS) return unknown(`hn: at most ${MAX_TERMS} terms`);
      return { kind: 'hn', terms };
    }
    case 'stackoverflow':
      return stackExchange('stackoverflow', rest);
    case 'stackexchange': {
      const site = /^([^:\s]+)\s*:\s*(.*)$/s.exec(rest);
      if (!site) return unknown('stackexchange: needs a site and tags, as stackexchange:superuser: windows-11');
      return stackExchange(site[1]!.toLowerCase().replace(/\.stackexchange\.com$/, ''), site[2]!);
    }
    case 'github': {
      const repo = /^(?:https?:\/\/github\.com\/)?([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/i.exec(rest);
      if (!repo || !GITHUB_NAME.test(repo[1]!) || !GITHUB_NAME.test(repo[2]!)) return unknown('github: needs owner/repo, as github: microsoft/vscode');
      return { kind: 'github', owner: repo[1]!, repo: repo[2]! };
    }
    case 'discourse':
      return discourse(rest);
    default:
      return unknown(`unknown community address "${prefix}:": use r/NAME, hn, stackoverflow:, stackexchange:, github: or discourse:`);
  }
}

function stackExchange(site: string, rest: string): Address {
  if (!SE_SITE.test(site)) return unknown(`"${site}" is not a Stack Exchange site name`);
  const tags = list(rest).map((t) => t.toLowerCase());
  if (tags.length === 0) return unknown(`${site}: name at least one tag, as stackoverflow: postgresql`);
  if (tags.length > MAX_TERMS) return unknown(`${site}: at most ${MAX_TERMS} tags`);
  const bad = tags.find((t) => !SE_TAG.test(t));
  if (bad !== undefined) return unknown(`"${bad}" is not a Stack Exchange tag`);
  return { kind: 'stackexchange', site, tags };
}

function discourse(rest: string): Address {
  let url: URL;
  try {
    url = new URL(rest);
  } catch {
    return unknown('discourse: needs the forum URL, as discourse: https://forum.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return unknown('discourse: the forum URL must be http(s)');
  if (url.username !== '' || url.password !== '') return unknown('discourse: the forum URL may not hold a user name or password');
  const path = url.pathname.replace(/\/+$/, '');
  const category = /^\/c\/([A-Za-z0-9_/-]+)$/.exec(path);
  if (path !== '' && !category) return unknown('discourse: the URL must be the forum itself or one of its /c/category pages');
  return { kind: 'discourse', base: url.origin, category: category ? category[1]! : null };
}

function list(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of text.split(',')) {
    const term = item.trim().replace(/\s+/g, ' ');
    if (term === '' || seen.has(term.toLowerCase())) continue;
    seen.add(term.toLowerCase());
    out.push(term);
  }
  return out;
}

function unknown(reason: string): Address {
  return { kind: 'unknown', reason };
}
