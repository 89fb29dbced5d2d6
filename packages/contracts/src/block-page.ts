/**
 * The block page (spec §2 `/blockaccess`, `/blockaccess/{type}`, `/blockaccess/{type}/{id}`): where a gateway
 * sends a blocked request, public (no session), in the tenant's branding and the reader's language.
 *
 * How a gateway gets there:
 * - HTTP (squid): a denied request answers `302` to
 *   `<console>/blockaccess/<type>/<ruleId>?tenant=<tenantId>&host=<host>&url=<url>&client=<tunnel address>`
 *   (`deny_info`), the rule known at compile time.
 * - DNS: a block of a policy with `blockPage` answers the gateway's own tunnel address (the zone carries
 *   {@link BLOCK_PAGE_ADDRESS_PLACEHOLDER}, which each gateway replaces with its address); squid on the gateway
 *   answers plain HTTP to that address with `302` to `<console>/blockaccess/site?tenant=…&host=…&client=…`, and
 *   the console finds the deciding rule with the engine.
 */

/** The `{type}` segment: what kind of rule blocked (never the rule's text). Others show the generic page. */
export const BLOCK_PAGE_TYPES = [
  /** Unknown to the gateway (a DNS block reached squid at the gateway's address): the console decides. */
  'site',
  'domain',
  'url',
  'keyword',
  'fileext',
  'category',
  'app',
  'threat',
] as const;
export type BlockPageType = (typeof BLOCK_PAGE_TYPES)[number];

/** The query parameters a gateway's redirect carries. */
export const BLOCK_PAGE_PARAMS = ['tenant', 'host', 'url', 'client'] as const;

/**
 * What a DNS block with the block page answers in the tenant-wide zone: TEST-NET-1 (RFC 5737, never routed), which
 * each gateway replaces with its own tunnel address in its RPZ zone and squid include before loading them.
 */
export const BLOCK_PAGE_ADDRESS_PLACEHOLDER = '192.0.2.1';
