import { Alert, Badge, Card, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { GatewayKind, Mesh, MeshIssue, MeshNode, MeshPeer } from '@palisade/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailList } from '../../../components/ui/detail-list';
import { GatewayStatusBadge } from '../../../components/ui/gateway-status';
import { EmptyState } from '../../../components/ui/query-state';
import { Mono } from './labels';

/** How many characters of a public key the tables show. */
const KEY_SHOWN = 8;

/** The gateway kinds by name. */
function useKindLabels(): Record<GatewayKind, string> {
  const { t } = useTranslation();
  return {
    cybernode: t('privateAccess.mesh.kind.cybernode', 'Cybernode'),
    virtual: t('privateAccess.mesh.kind.virtual', 'Virtual cybernode'),
    cgw: t('privateAccess.mesh.kind.cgw', 'Site gateway (CGW)'),
    cgwr: t('privateAccess.mesh.kind.cgwr', 'Site gateway with router (CGWR)'),
    lgw: t('privateAccess.mesh.kind.lgw', 'Local gateway (LGW)'),
  };
}

/** Names as a list of the language ("Berlin and Munich", "Berlin und München"). */
function useListFormat(): (names: string[]) => string {
  const { i18n } = useTranslation();
  const format = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  return (names) => format.format(names);
}

/** Networks or AllowedIPs as a list of monospace chips, or a dimmed text when there are none. */
function NetworkList({ networks, label, none }: { networks: string[]; label: string; none: string }) {
  if (networks.length === 0) {
    return (
      <Text component="span" size="sm" c="dimmed">
        {none}
      </Text>
    );
  }
  return (
    <Group component="ul" gap={6} wrap="wrap" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {networks.map((network) => (
        <li key={network}>
          <Mono>{network}</Mono>
        </li>
      ))}
    </Group>
  );
}

/** A WireGuard public key, shortened; the whole key is in its title and read out to screen readers. */
function PublicKey({ value }: { value: string }) {
  const { t } = useTranslation();
  if (!value) {
    return (
      <Text component="span" size="sm" c="dimmed">
        {t('privateAccess.mesh.noKey', 'No key yet')}
      </Text>
    );
  }
  const isShort = value.length <= KEY_SHOWN + 1;
  return (
    <Text component="span" size="sm" ff="monospace" title={value}>
      <span aria-hidden>{isShort ? value : `${value.slice(0, KEY_SHOWN)}…`}</span>
      <VisuallyHidden>{value}</VisuallyHidden>
    </Text>
  );
}

/** The WireGuard peers one gateway's bundle carries for the mesh. */
function PeerTable({ node }: { node: MeshNode }) {
  const { t } = useTranslation();
  const caption = t('privateAccess.mesh.peers.caption', 'WireGuard peers of {{name}}', { name: node.name });
  if (node.peers.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('privateAccess.mesh.peers.none', 'No WireGuard peers for the mesh.')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs" captionSide="top">
        <Table.Caption style={{ textAlign: 'start' }}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('privateAccess.mesh.peers.name', 'Peer')}</Table.Th>
            <Table.Th scope="col">{t('privateAccess.mesh.peers.publicKey', 'Public key')}</Table.Th>
            <Table.Th scope="col">{t('privateAccess.mesh.peers.endpoint', 'Endpoint')}</Table.Th>
            <Table.Th scope="col">{t('privateAccess.mesh.peers.allowedIps', 'AllowedIPs')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {node.peers.map((peer: MeshPeer) => (
            <Table.Tr key={peer.gatewayId}>
              <Table.Th scope="row" fw={500}>
                {peer.name}
              </Table.Th>
              <Table.Td>
                <PublicKey value={peer.publicKey} />
              </Table.Td>
              <Table.Td>
                {peer.endpoint ? (
                  <Mono>{peer.endpoint}</Mono>
                ) : (
                  <Text component="span" size="sm" c="dimmed">
                    {t('privateAccess.mesh.reachesOut', 'Reaches out')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <NetworkList
                  networks={peer.allowedIps}
                  label={t('privateAccess.mesh.peers.allowedIpsOf', 'AllowedIPs towards {{name}}', {
                    name: peer.name,
                  })}
                  none={t('privateAccess.mesh.nothing', 'None')}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One gateway of the mesh: what it is, where it is reached, what it routes and its peers. */
function NodeCard({ node, isHub }: { node: MeshNode; isHub: boolean }) {
  const { t } = useTranslation();
  const kinds = useKindLabels();
  const titleId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group gap="sm" align="center">
          <Title order={3} size="h5" id={titleId}>
            {node.name}
          </Title>
          <Badge variant="light" color={isHub ? 'grape' : 'blue'} radius="sm">
            {isHub ? t('privateAccess.mesh.node.hub', 'Hub') : t('privateAccess.mesh.node.site', 'Mesh site')}
          </Badge>
        </Group>
        <DetailList
          items={[
            { label: t('privateAccess.mesh.node.kind', 'Kind'), value: kinds[node.kind] },
            {
              label: t('privateAccess.mesh.node.status', 'Status'),
              value: <GatewayStatusBadge status={node.status} />,
            },
            {
              label: t('privateAccess.mesh.node.address', 'Tunnel address'),
              value: node.address ? (
                <Mono>{node.address}</Mono>
              ) : (
                t('privateAccess.mesh.node.noAddress', 'None until it enrols')
              ),
            },
            {
              label: t('privateAccess.mesh.node.endpoint', 'Endpoint'),
              value: node.endpoint ? (
                <Mono>{node.endpoint}</Mono>
              ) : (
                t('privateAccess.mesh.node.reachesOut', 'None: it reaches out to its peers')
              ),
            },
            {
              label: t('privateAccess.mesh.node.devices', 'Devices'),
              value: node.takesDevices
                ? t('privateAccess.mesh.node.takesDevices', 'Takes the devices as peers itself')
                : t('privateAccess.mesh.node.throughHub', 'Devices reach it through the hub'),
            },
            {
              label: t('privateAccess.mesh.node.networks', 'Networks'),
              value: (
                <NetworkList
                  networks={node.networks}
                  label={t('privateAccess.mesh.node.networksOf', 'Networks of {{name}}', { name: node.name })}
                  none={t('privateAccess.mesh.nothing', 'None')}
                />
              ),
            },
          ]}
        />
        <PeerTable node={node} />
      </Stack>
    </Card>
  );
}

/** What one issue says, naming the gateways concerned (and the network of a conflict). */
function useIssueText(): (issue: MeshIssue) => { title: string; text: string; color: string } {
  const { t } = useTranslation();
  const list = useListFormat();
  return (issue) => {
    const names = issue.gateways.map((gateway) => gateway.name);
    const count = names.length;
    switch (issue.code) {
      case 'not-enrolled':
        return {
          color: 'yellow',
          title: t('privateAccess.mesh.issue.notEnrolledTitle', 'Not enrolled yet'),
          text: t('privateAccess.mesh.issue.notEnrolled', {
            count,
            gateways: list(names),
            defaultValue_one:
              '{{gateways}} has not enrolled yet. It has no tunnel, so the mesh leaves it out until it enrols.',
            defaultValue_other:
              '{{gateways}} have not enrolled yet. They have no tunnel, so the mesh leaves them out until they enrol.',
          }),
        };
      case 'conflict': {
        const network = issue.network ?? '';
        if (count < 2) {
          return {
            color: 'orange',
            title: t('privateAccess.mesh.issue.conflictTitle', 'Network conflict: {{network}}', { network }),
            text: t(
              'privateAccess.mesh.issue.conflictReserved',
              '{{network}} at {{gateway}} overlaps the addresses of the tunnels themselves, so the mesh leaves it out. Give the network another address range to reach it through the mesh.',
              { network, gateway: names[0] ?? '' },
            ),
          };
        }
        return {
          color: 'orange',
          title: t('privateAccess.mesh.issue.conflictTitle', 'Network conflict: {{network}}', { network }),
          text: t(
            'privateAccess.mesh.issue.conflict',
            '{{network}} is claimed by {{gateways}}. The mesh routes it to {{first}}; at {{others}} it stays out of reach until it gets an address range of its own.',
            { network, gateways: list(names), first: names[0], others: list(names.slice(1)) },
          ),
        };
      }
      case 'unreachable':
        return {
          color: 'red',
          title: t('privateAccess.mesh.issue.unreachableTitle', 'Sites that cannot reach each other'),
          text: t(
            'privateAccess.mesh.issue.unreachable',
            '{{gateways}} cannot reach each other: neither has a public endpoint, and there is no hub to relay between them. Give one of them an endpoint, or choose a hub.',
            { gateways: list(names) },
          ),
        };
    }
  };
}

/** What keeps the mesh from being whole, each as an alert. */
function IssueList({ issues }: { issues: MeshIssue[] }) {
  const { t } = useTranslation();
  const textOf = useIssueText();
  const titleId = useId();
  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId}>
        {t('privateAccess.mesh.issue.heading', 'To fix')}
      </Title>
      {issues.map((issue) => {
        const { title, text, color } = textOf(issue);
        return (
          <Alert
            key={`${issue.code}:${issue.network ?? ''}:${issue.gateways.map((gateway) => gateway.id).join()}`}
            color={color}
            variant="light"
            title={title}
          >
            <Text size="sm">{text}</Text>
          </Alert>
        );
      })}
    </Stack>
  );
}

/** The members: how many users and devices, and what a member's device routes to each gateway. */
function MembersSection({ members }: { members: Mesh['members'] }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Title order={2} size="h4" id={titleId}>
          {t('privateAccess.mesh.members.title', 'Members’ devices')}
        </Title>
        <DetailList
          items={[
            {
              label: t('privateAccess.mesh.members.users', 'Member users'),
              value: t('privateAccess.mesh.members.usersCount', {
                count: members.users,
                defaultValue_one: '{{count, number}} user',
                defaultValue_other: '{{count, number}} users',
              }),
            },
            {
              label: t('privateAccess.mesh.members.devices', 'Their devices with a tunnel'),
              value: t('privateAccess.mesh.members.devicesCount', {
                count: members.devices,
                defaultValue_one: '{{count, number}} device',
                defaultValue_other: '{{count, number}} devices',
              }),
            },
          ]}
        />
        {members.allowedIps.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('privateAccess.mesh.members.none', 'A member’s device gets no networks of the mesh yet.')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs" captionSide="top">
              <Table.Caption style={{ textAlign: 'start' }}>
                {t('privateAccess.mesh.members.caption', 'AllowedIPs a member’s device gets, per gateway')}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('privateAccess.mesh.members.gateway', 'Gateway')}</Table.Th>
                  <Table.Th scope="col">{t('privateAccess.mesh.peers.allowedIps', 'AllowedIPs')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.allowedIps.map((entry) => (
                  <Table.Tr key={entry.gatewayId}>
                    <Table.Th scope="row" fw={500}>
                      {entry.name}
                    </Table.Th>
                    <Table.Td>
                      <NetworkList
                        networks={entry.allowedIps}
                        label={t('privateAccess.mesh.members.allowedIpsOf', 'AllowedIPs towards {{name}}', {
                          name: entry.name,
                        })}
                        none={t('privateAccess.mesh.nothing', 'None')}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The mesh as the gateways' bundles carry it, read-only: what keeps it from being whole, then each gateway
 * (the hub first) with its peers, then the members' devices. While the mesh is off, a text says so instead.
 */
export function MeshTopology({ mesh }: { mesh: Mesh }) {
  const { t } = useTranslation();
  const titleId = useId();
  const renderNodes = () => {
    if (!mesh.enabled) {
      return (
        <EmptyState
          message={t(
            'privateAccess.mesh.off',
            'The mesh is off: no tunnels between the sites, and the members get nothing from it. Switch it on and save to connect the chosen sites.',
          )}
        />
      );
    }
    if (mesh.nodes.length === 0) {
      return (
        <EmptyState
          message={t(
            'privateAccess.mesh.noNodes',
            'No gateway is in the mesh yet. Choose enrolled site gateways above and save.',
          )}
        />
      );
    }
    return (
      <Stack gap="md">
        {mesh.nodes.map((node) => (
          <NodeCard key={node.id} node={node} isHub={node.id === mesh.hub?.id} />
        ))}
      </Stack>
    );
  };
  return (
    <Stack gap="lg">
      {mesh.issues.length > 0 ? <IssueList issues={mesh.issues} /> : null}
      <Stack gap="md" component="section" aria-labelledby={titleId}>
        <div>
          <Title order={2} size="h4" id={titleId}>
            {t('privateAccess.mesh.topology.title', 'Topology')}
          </Title>
          <Text size="sm" c="dimmed">
            {t(
              'privateAccess.mesh.topology.intro',
              'What the gateways’ bundles carry for the mesh: each gateway with its tunnel and the WireGuard peers it gets, the hub first.',
            )}
          </Text>
        </div>
        {renderNodes()}
      </Stack>
      {mesh.enabled ? <MembersSection members={mesh.members} /> : null}
    </Stack>
  );
}
