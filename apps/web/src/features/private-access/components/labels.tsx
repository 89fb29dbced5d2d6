import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ZTNA_RULE_PROTOCOLS } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

type Protocol = (typeof ZTNA_RULE_PROTOCOLS)[number];

/** The protocols by name: TCP, UDP and (ZTNA rules only) any protocol. */
export function useProtocolLabels(): Record<Protocol, string> {
  const { t } = useTranslation();
  return {
    tcp: t('privateAccess.protocol.tcp', 'TCP'),
    udp: t('privateAccess.protocol.udp', 'UDP'),
    any: t('privateAccess.protocol.any', 'Any'),
  };
}

/** Text in the monospace font (addresses, networks, ports). */
export function Mono({ children }: { children: string }) {
  return (
    <Text component="span" size="sm" ff="monospace">
      {children}
    </Text>
  );
}

/** What an entry lets through: its protocol and its ports, or every port (null ports or any protocol). */
export function ProtocolPorts({ protocol, ports }: { protocol: Protocol; ports: string | null }) {
  const { t } = useTranslation();
  const labels = useProtocolLabels();
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="default" radius="sm">
        {labels[protocol]}
      </Badge>
      {ports === null || protocol === 'any' ? (
        <Text component="span" size="sm">
          {t('privateAccess.table.allPorts', 'all ports')}
        </Text>
      ) : (
        <Mono>{ports}</Mono>
      )}
    </Group>
  );
}

/** One kind of the audience as a labelled list of chips. */
function ChipList({
  label,
  listLabel,
  items,
  color,
}: {
  label: string;
  listLabel: string;
  items: { id: string; name: string }[];
  color: string;
}) {
  return (
    <Group gap={6} align="center" wrap="wrap">
      <Text component="span" size="xs" c="dimmed" aria-hidden>
        {label}
      </Text>
      <Group
        component="ul"
        gap={4}
        wrap="wrap"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label={listLabel}
      >
        {items.map((item) => (
          <li key={item.id}>
            <Badge variant="light" color={color} radius="sm" tt="none">
              {item.name}
            </Badge>
          </li>
        ))}
      </Group>
    </Group>
  );
}

/** Who may reach an entry: its users and its groups as chips, or "nobody". */
export function Audience({
  name,
  users,
  groups,
}: {
  /** The entry's name, for the lists' accessible names. */
  name: string;
  users: { id: string; name: string }[];
  groups: { id: string; name: string }[];
}) {
  const { t } = useTranslation();
  if (users.length === 0 && groups.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('privateAccess.table.nobody', 'Nobody yet')}
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      {users.length > 0 ? (
        <ChipList
          label={t('privateAccess.table.usersLabel', 'Users')}
          listLabel={t('privateAccess.table.usersOf', 'Users who may reach {{name}}', { name })}
          items={users}
          color="blue"
        />
      ) : null}
      {groups.length > 0 ? (
        <ChipList
          label={t('privateAccess.table.groupsLabel', 'Groups')}
          listLabel={t('privateAccess.table.groupsOf', 'Groups who may reach {{name}}', { name })}
          items={groups}
          color="grape"
        />
      ) : null}
    </Stack>
  );
}
