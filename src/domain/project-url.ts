/**
 * DESIGN §4: within one account a project URL is unique, compared without scheme case, `www.`,
 * trailing slash, query or fragment. Two URLs with the same key are one project's URL: a second
 * project with it would hide the first from `project` selection (the newest of the matches wins).
 */
export function projectUrlKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    // Not a URL a project could have been created with: compare the text as given, loosely.
    return url.trim().toLowerCase().replace(/[?#].*$/, '').replace(/\/+$/, '');
  }
  // URL lower-cases the scheme and host and drops a default port already.
  const host = parsed.host.replace(/^www\./, '');
  const path = parsed.pathname.replace(/\/+$/, '');
  return `${parsed.protocol}//${host}${path}`;
}

export function sameProjectUrl(a: string, b: string): boolean {
  return projectUrlKey(a) === projectUrlKey(b);
}
