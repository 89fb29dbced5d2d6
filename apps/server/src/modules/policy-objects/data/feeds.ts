/** A threat-intel feed shipped with Palisade. Its entries live here; each tenant's enabled state in a row. */
export interface BuiltinFeed {
  id: string;
  name: string;
  description: string;
  enabledByDefault: boolean;
  ips: readonly string[];
  domains: readonly string[];
}

export const BUILTIN_FEEDS: readonly BuiltinFeed[] = [
  {
    id: 'builtin-test-indicators',
    name: 'Palisade test indicators',
    description:
      'Test data only, to check that blocking works: the public categorisation test domains and the three ' +
      'RFC 5737 documentation ranges (TEST-NET-1/2/3), which never carry real traffic.',
    enabledByDefault: true,
    ips: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'],
    domains: [
      'malware.testcategory.com',
      'phishing.testcategory.com',
      'cryptomining.testcategory.com',
      'commandandcontrol.testcategory.com',
    ],
  },
  {
    id: 'builtin-bogons',
    name: 'Bogon networks',
    description:
      'IANA special-purpose and reserved IPv4 ranges (RFC 6890 and its registry) that should never appear as ' +
      'public destinations. Private RFC 1918 ranges are left out: blocking them would cut off internal networks.',
    enabledByDefault: false,
    ips: [
      '0.0.0.0/8', // "This network" (RFC 791)
      '100.64.0.0/10', // Shared address space, carrier-grade NAT (RFC 6598)
      '127.0.0.0/8', // Loopback (RFC 1122)
      '169.254.0.0/16', // Link local (RFC 3927)
      '192.0.0.0/24', // IETF protocol assignments (RFC 6890)
      '192.0.2.0/24', // Documentation, TEST-NET-1 (RFC 5737)
      '198.18.0.0/15', // Benchmarking (RFC 2544)
      '198.51.100.0/24', // Documentation, TEST-NET-2 (RFC 5737)
      '203.0.113.0/24', // Documentation, TEST-NET-3 (RFC 5737)
      '224.0.0.0/4', // Multicast (RFC 5771), never a unicast destination
      '240.0.0.0/4', // Reserved for future use (RFC 1112)
    ],
    domains: [],
  },
];

export const BUILTIN_FEED_IDS: ReadonlySet<string> = new Set(BUILTIN_FEEDS.map((f) => f.id));
