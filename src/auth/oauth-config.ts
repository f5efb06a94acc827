/** The OAuth constants of DESIGN §7, in one place for the server, the MCP endpoint and the docs. */
export const OAUTH = {
  /** What an MCP client may ask for: reading signals, and refresh tokens. */
  scopes: ['signals:read', 'offline_access'] as const,
  readScope: 'signals:read',
  accessTokenSeconds: 60 * 60,
  refreshTokenSeconds: 30 * 24 * 60 * 60,
  codeSeconds: 10 * 60,
} as const;

/** The issuer and the one protected resource, derived from PUBLIC_URL. */
export function oauthUrls(publicUrl: string) {
  return {
    issuer: `${publicUrl}/api/auth`,
    resource: `${publicUrl}/api/mcp`,
    resourceMetadata: `${publicUrl}/.well-known/oauth-protected-resource/api/mcp`,
  };
}
