/** DESIGN §2: the service's whole configuration, from the environment, checked once at start. */
import { parseAllowHosts } from './net/fetch.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  publicUrl: string;
  logLevel: string;
  digest: {
    /** UTC hour at which each project's daily window closes and its digest runs. */
    hourUtc: number;
    /** `file:DIR` for scheduled runs; unset: the scheduler only sweeps runs whose process died. */
    source: string | undefined;
    tickMs: number;
    leaseMs: number;
  };
  /** `FETCH_ALLOW_HOSTS`: host:port names exempt from the private-address refusal of outbound fetches. */
  fetchAllowHosts: Set<string>;
  sources: SourceSettings;
}

/** DESIGN §8.1: where the live sources are and the credentials they may use. */
export interface SourceSettings {
  /** Feeds and the OAuth token endpoint. */
  redditUrl: string;
  redditApiUrl: string;
  hnAlgoliaUrl: string;
  stackexchangeApiUrl: string;
  githubApiUrl: string;
  /** Least time between two Reddit feed requests from this process. */
  redditFeedIntervalMs: number;
  redditClientId: string | undefined;
  redditClientSecret: string | undefined;
  /** `<platform>:<app id>:<version> (by /u/<name>)`, as Reddit's API rules require. */
  redditUserAgent: string | undefined;
  githubToken: string | undefined;
  stackexchangeKey: string | undefined;
  fetchAllowHosts: ReadonlySet<string>;
}

/** A bad setting (an environment variable or --port): said in one line, before anything starts. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: { port?: number } = {}): Config {
  const port = overrides.port ?? parsePort(env.PORT ?? '8080');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/i.test(publicUrl)) throw new ConfigError(`PUBLIC_URL "${publicUrl}" is not an http(s) URL`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL ?? 'sqlite:./data/signals.db',
    publicUrl,
    logLevel: env.LOG_LEVEL ?? 'info',
    digest: {
      hourUtc: parseBounded('DIGEST_HOUR_UTC', env.DIGEST_HOUR_UTC ?? '6', 0, 23),
      source: env.DIGEST_SOURCE?.trim() || undefined,
      tickMs: parseBounded('DIGEST_TICK_SECONDS', env.DIGEST_TICK_SECONDS ?? '60', 1, 3_600) * 1000,
      leaseMs: parseBounded('DIGEST_LEASE_SECONDS', env.DIGEST_LEASE_SECONDS ?? '60', 1, 3_600) * 1000,
    },
    fetchAllowHosts: allowHostsFrom(env),
    sources: loadSourceSettings(env),
  };
}

export function loadSourceSettings(env: NodeJS.ProcessEnv = process.env): SourceSettings {
  const secret = (name: string) => env[name]?.trim() || undefined;
  return {
    redditUrl: baseUrl('REDDIT_URL', env.REDDIT_URL, 'https://www.reddit.com'),
    redditApiUrl: baseUrl('REDDIT_API_URL', env.REDDIT_API_URL, 'https://oauth.reddit.com'),
    hnAlgoliaUrl: baseUrl('HN_ALGOLIA_URL', env.HN_ALGOLIA_URL, 'https://hn.algolia.com'),
    stackexchangeApiUrl: baseUrl('STACKEXCHANGE_API_URL', env.STACKEXCHANGE_API_URL, 'https://api.stackexchange.com'),
    githubApiUrl: baseUrl('GITHUB_API_URL', env.GITHUB_API_URL, 'https://api.github.com'),
    redditFeedIntervalMs: parseBounded('REDDIT_FEED_INTERVAL_SECONDS', env.REDDIT_FEED_INTERVAL_SECONDS ?? '60', 0, 3_600) * 1000,
    redditClientId: secret('REDDIT_CLIENT_ID'),
    redditClientSecret: secret('REDDIT_CLIENT_SECRET'),
    redditUserAgent: secret('REDDIT_USER_AGENT'),
    githubToken: secret('GITHUB_TOKEN'),
    stackexchangeKey: secret('STACKEXCHANGE_KEY'),
    fetchAllowHosts: allowHostsFrom(env),
  };
}

function allowHostsFrom(env: NodeJS.ProcessEnv): Set<string> {
  try {
    return parseAllowHosts(env.FETCH_ALLOW_HOSTS);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

function baseUrl(name: string, value: string | undefined, fallback: string): string {
  const url = (value?.trim() || fallback).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/i.test(url)) throw new ConfigError(`${name} "${url}" is not an http(s) URL`);
  return url;
}

export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError(`port "${text}" is not a number from 0 to 65535`);
  return port;
}

function parseBounded(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} "${text}" is not a whole number from ${min} to ${max}`);
  return value;
}
