/** Lookup key of a permalink: path only, no trailing slash (DESIGN §4 "posts.get"). */
export function normalizePermalinkKey(permalink: string): string {
  let path = permalink.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length);
  path = path.replace(/[?#].*$/s, '');
  if (!path.startsWith('/')) path = `/${path}`;
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}
