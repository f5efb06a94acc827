/** DESIGN §2: the service's whole configuration, from the environment, checked once at start. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  publicUrl: string;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: { port?: number } = {}): Config {
  const port = overrides.port ?? parsePort(env.PORT ?? '8080');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/i.test(publicUrl)) throw new Error(`PUBLIC_URL "${publicUrl}" is not an http(s) URL`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL ?? 'sqlite:./data/signals.db',
    publicUrl,
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}

export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`port "${text}" is not a number from 0 to 65535`);
  return port;
}
