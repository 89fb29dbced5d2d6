/**
 * Query keys of the API tokens area. Tokens belong to the signed-in administrator, in its own tenant: keys sit
 * under `['tenant', ownTenant, 'tokens']`, so a sign-in with another account never shows them.
 */
export const tokensKeys = {
  all: (tenant: string) => ['tenant', tenant, 'tokens'] as const,
  list: (tenant: string, page: { limit: number; offset: number }) =>
    ['tenant', tenant, 'tokens', 'list', page] as const,
};
