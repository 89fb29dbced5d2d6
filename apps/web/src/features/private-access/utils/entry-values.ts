import type {
  PrivateService,
  PrivateServiceInput,
  ZTNA_RULE_PROTOCOLS,
  ZtnaRule,
  ZtnaRuleInput,
} from '@palisade/contracts';

/** What the service form edits; `gatewayId` is null until a gateway is picked. */
export interface ServiceFormValues {
  name: string;
  gatewayId: string | null;
  address: string;
  protocol: PrivateService['protocol'];
  ports: string;
  userIds: string[];
  groupIds: string[];
  enabled: boolean;
}

/** What the ZTNA rule form edits; `ports` is empty for every port. */
export interface ZtnaRuleFormValues {
  name: string;
  gatewayId: string | null;
  destination: string;
  protocol: (typeof ZTNA_RULE_PROTOCOLS)[number];
  ports: string;
  userIds: string[];
  groupIds: string[];
  enabled: boolean;
}

const ids = (named: { id: string }[]) => named.map((entry) => entry.id);

/** The form values of a service, or of a new one (TCP, enabled). */
export function serviceToFormValues(service?: PrivateService): ServiceFormValues {
  return service
    ? {
        name: service.name,
        gatewayId: service.gatewayId,
        address: service.address,
        protocol: service.protocol,
        ports: service.ports,
        userIds: ids(service.users),
        groupIds: ids(service.groups),
        enabled: service.enabled,
      }
    : {
        name: '',
        gatewayId: null,
        address: '',
        protocol: 'tcp',
        ports: '',
        userIds: [],
        groupIds: [],
        enabled: true,
      };
}

/** The service form's values as the API takes them (an unpicked gateway as empty, which the contract refuses). */
export function serviceFormToInput(values: ServiceFormValues): PrivateServiceInput {
  return {
    name: values.name.trim(),
    gatewayId: values.gatewayId ?? '',
    address: values.address.trim(),
    protocol: values.protocol,
    ports: values.ports.trim(),
    userIds: values.userIds,
    groupIds: values.groupIds,
    enabled: values.enabled,
  };
}

/** A listed service as the API takes it back (the enabled switch sends the whole service). */
export function serviceToInput(service: PrivateService): PrivateServiceInput {
  return serviceFormToInput(serviceToFormValues(service));
}

/** The form values of a rule, or of a new one (TCP, every port, enabled). */
export function ztnaRuleToFormValues(rule?: ZtnaRule): ZtnaRuleFormValues {
  return rule
    ? {
        name: rule.name,
        gatewayId: rule.gatewayId,
        destination: rule.destination,
        protocol: rule.protocol,
        ports: rule.ports ?? '',
        userIds: ids(rule.users),
        groupIds: ids(rule.groups),
        enabled: rule.enabled,
      }
    : {
        name: '',
        gatewayId: null,
        destination: '',
        protocol: 'tcp',
        ports: '',
        userIds: [],
        groupIds: [],
        enabled: true,
      };
}

/** The rule form's values as the API takes them: no ports (every port) when empty or with "any" protocol. */
export function ztnaRuleFormToInput(values: ZtnaRuleFormValues): ZtnaRuleInput {
  const ports = values.ports.trim();
  return {
    name: values.name.trim(),
    gatewayId: values.gatewayId ?? '',
    destination: values.destination.trim(),
    protocol: values.protocol,
    ports: values.protocol === 'any' || ports === '' ? null : ports,
    userIds: values.userIds,
    groupIds: values.groupIds,
    enabled: values.enabled,
  };
}

/** A listed rule as the API takes it back (the enabled switch sends the whole rule). */
export function ztnaRuleToInput(rule: ZtnaRule): ZtnaRuleInput {
  return ztnaRuleFormToInput(ztnaRuleToFormValues(rule));
}

/**
 * Field errors with the list positions folded into their list (`userIds.2` → `userIds`, the first message
 * wins), keeping only the fields the form shows.
 */
export function foldFieldErrors(
  errors: Record<string, string>,
  fields: readonly string[],
): Record<string, string> {
  const folded: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = path.split('.')[0];
    if (fields.includes(field) && folded[field] === undefined) folded[field] = message;
  }
  return folded;
}
