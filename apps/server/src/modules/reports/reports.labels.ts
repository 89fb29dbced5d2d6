import type {
  CheckStatus,
  ComplianceCheckId,
  DecisionLayer,
  EvidenceNote,
  Locale,
  ReportKind,
  TelemetrySource,
  TrendMetric,
} from '@palisade/contracts';

/**
 * The words of the PDFs and the report mails, in English and German (the server has no translation catalogue:
 * the web's lives in its public folder). The screens say the same with their own keys (`reports.*`).
 */
export interface ReportLabels {
  brand: string;
  titles: Record<ReportKind, string>;
  generated: string;
  checked: string;
  nothingToList: string;
  period: string;
  previousPeriod: string;
  /**
   * Under the title of a report limited to one source (issue 23): `gateway` — its figures leave simulated
   * traffic out; `simulated` — they are of simulated traffic only.
   */
  sources: Record<TelemetrySource, string>;
  page: (page: number, pages: number) => string;
  kpis: {
    decisions: string;
    allowed: string;
    blocked: string;
    threats: string;
    connections: string;
    deviceEvents: string;
    bytes: string;
    users: string;
    devices: string;
    newDevices: string;
    /** Of the requests, those `--simulate-traffic` made up (shown only when there are some). */
    simulated: string;
  };
  sections: {
    keyFigures: string;
    requestsOverTime: string;
    topBlockedDestinations: string;
    topBlockedCategories: string;
    topThreats: string;
    newDevices: string;
    layers: string;
    topCategories: string;
    topApps: string;
    topDestinations: string;
    topUsers: string;
    trends: string;
    blockedPerDay: string;
    privateAccess: string;
    summary: string;
    checks: string;
  };
  columns: {
    rank: string;
    name: string;
    allowed: string;
    blocked: string;
    device: string;
    os: string;
    user: string;
    enrolled: string;
    layer: string;
    metric: string;
    thisWeek: string;
    lastWeek: string;
    change: string;
    site: string;
    users: string;
    devices: string;
    sessions: string;
    duration: string;
    data: string;
    evidence: string;
    detail: string;
  };
  units: { minute: string; hour: string; day: string };
  layers: Record<DecisionLayer, string>;
  trendMetrics: Record<TrendMetric, string>;
  weeks: { current: string; previous: string };
  none: string;
  status: Record<CheckStatus, string>;
  checks: Record<ComplianceCheckId, { title: string; remediation: string }>;
  notes: Record<EvidenceNote, string>;
  remediation: string;
  more: (count: number) => string;
  /** Our mail templates: `tenant` is the tenant's display name made safe (reports.recipients.ts, mailSafeName). */
  mail: {
    subject: (title: string, tenant: string) => string;
    body: (title: string, tenant: string, period: string) => string;
    verifySubject: (tenant: string) => string;
    verifyBody: (tenant: string, link: string, days: number) => string;
  };
}

const en: ReportLabels = {
  brand: 'Palisade',
  titles: {
    dsb: 'Daily security brief',
    analytics: 'Traffic analytics',
    'weekly-sase-insights': 'Weekly SASE insights',
    'security-compliance': 'Security compliance',
  },
  generated: 'Generated',
  checked: 'Checked',
  nothingToList: 'Nothing to list.',
  period: 'Period',
  previousPeriod: 'Compared with',
  sources: {
    gateway: 'Real traffic only: simulated demo traffic is left out.',
    simulated: 'Simulated demo traffic only: none of these figures were seen on real traffic.',
  },
  page: (page, pages) => `Page ${page} of ${pages}`,
  kpis: {
    decisions: 'Requests',
    allowed: 'Allowed',
    blocked: 'Blocked',
    threats: 'Threats',
    connections: 'Connections',
    deviceEvents: 'Device events',
    bytes: 'Data',
    users: 'Users',
    devices: 'Devices',
    newDevices: 'New devices',
    simulated: 'Of these simulated (demo traffic)',
  },
  sections: {
    keyFigures: 'Key figures',
    requestsOverTime: 'Requests over time',
    topBlockedDestinations: 'Top blocked destinations',
    topBlockedCategories: 'Top blocked categories',
    topThreats: 'Top threats',
    newDevices: 'New devices',
    layers: 'Requests per layer',
    topCategories: 'Top categories',
    topApps: 'Top applications',
    topDestinations: 'Top destinations',
    topUsers: 'Top users',
    trends: 'Trends against the week before',
    blockedPerDay: 'Blocked requests per day',
    privateAccess: 'Private access per site',
    summary: 'Summary',
    checks: 'Checks',
  },
  columns: {
    rank: '#',
    name: 'Name',
    allowed: 'Allowed',
    blocked: 'Blocked',
    device: 'Device',
    os: 'Operating system',
    user: 'User',
    enrolled: 'Enrolled',
    layer: 'Layer',
    metric: 'Figure',
    thisWeek: 'This week',
    lastWeek: 'Week before',
    change: 'Change',
    site: 'Site',
    users: 'Users',
    devices: 'Devices',
    sessions: 'Sessions',
    duration: 'Duration',
    data: 'Data',
    evidence: 'Evidence',
    detail: 'Detail',
  },
  units: { minute: 'Requests per minute', hour: 'Requests per hour', day: 'Requests per day' },
  layers: { dns: 'DNS', network: 'Network', http: 'Web (HTTP)' },
  trendMetrics: {
    decisions: 'Requests',
    allowed: 'Allowed',
    blocked: 'Blocked',
    threats: 'Threats',
    connections: 'Connections',
    users: 'Active users',
    devices: 'Active devices',
    bytes: 'Data',
  },
  weeks: { current: 'This week', previous: 'Week before' },
  none: 'Nothing in this period.',
  status: { pass: 'Passed', warn: 'Warning', fail: 'Failed' },
  checks: {
    'admin-mfa': {
      title: 'Administrators use two-factor authentication',
      remediation:
        'Ask each administrator listed to turn on two-factor authentication in their account settings, or suspend accounts that are no longer needed.',
    },
    'admin-sign-in': {
      title: 'Administrators signed in within the last 90 days',
      remediation: 'Suspend or remove administrator accounts that are no longer used.',
    },
    'threat-intel': {
      title: 'Threat intelligence is enabled',
      remediation:
        'Enable at least one threat-intelligence feed under Policies › Threat intelligence, and fix feeds whose refresh fails.',
    },
    'security-categories': {
      title: 'Security categories are blocked',
      remediation:
        'Set the categories listed to Block under Policies › Web categories, or block them in an enabled policy.',
    },
    'stale-devices': {
      title: 'Devices connected within the last 30 days',
      remediation: 'Disable or delete devices that have not connected for 30 days.',
    },
    'device-posture': {
      title: 'Devices pass their posture checks',
      remediation:
        'Fix the failing checks on the devices listed (disk encryption, firewall, screen lock, antivirus, operating system updates).',
    },
  },
  notes: {
    mfaOff: 'Two-factor authentication off',
    mfaOn: 'Two-factor authentication on',
    neverSignedIn: 'Never signed in',
    lastSignIn: 'Last sign-in',
    feedEnabled: 'Enabled',
    feedDisabled: 'Disabled',
    feedError: 'Refresh failed',
    notBlocked: 'Not blocked',
    blockedByTenant: 'Blocked for the whole tenant',
    blockedByPolicy: 'Blocked by a policy',
    neverSeen: 'Never seen',
    lastSeen: 'Last seen',
    postureFailing: 'Posture checks failing',
  },
  remediation: 'What to do',
  more: (count) => `… and ${count} more`,
  mail: {
    subject: (title, tenant) => `${title} – ${tenant}`,
    body: (title, tenant, period) =>
      `${title} for ${tenant} (${period}).\n\nThe report is attached as a PDF.\n\nYou receive this mail because an administrator of ${tenant} scheduled this report for your address in Palisade.`,
    verifySubject: (tenant) => `Confirm your address for Palisade reports – ${tenant}`,
    verifyBody: (tenant, link, days) =>
      `An administrator of the Palisade workspace ${tenant} would like to mail security reports to this address.\n\nNothing is mailed to you until you confirm. To receive the reports, open this link and confirm:\n${link}\n\nThe link is valid for ${days} days. If you do not want these reports, ignore this mail: you will receive none.`,
  },
};

const de: ReportLabels = {
  brand: 'Palisade',
  titles: {
    dsb: 'Tägliches Sicherheits-Briefing',
    analytics: 'Datenverkehrsanalyse',
    'weekly-sase-insights': 'Wöchentliche SASE-Einblicke',
    'security-compliance': 'Sicherheits-Compliance',
  },
  generated: 'Erstellt',
  checked: 'Geprüft',
  nothingToList: 'Nichts aufzuführen.',
  period: 'Zeitraum',
  previousPeriod: 'Verglichen mit',
  sources: {
    gateway: 'Nur echter Verkehr: Simulierter Demo-Verkehr ist ausgeblendet.',
    simulated: 'Nur simulierter Demo-Verkehr: Keine dieser Zahlen stammt aus echtem Verkehr.',
  },
  page: (page, pages) => `Seite ${page} von ${pages}`,
  kpis: {
    decisions: 'Anfragen',
    allowed: 'Erlaubt',
    blocked: 'Blockiert',
    threats: 'Bedrohungen',
    connections: 'Verbindungen',
    deviceEvents: 'Geräteereignisse',
    bytes: 'Datenmenge',
    users: 'Benutzer',
    devices: 'Geräte',
    newDevices: 'Neue Geräte',
    simulated: 'Davon simuliert (Demo-Verkehr)',
  },
  sections: {
    keyFigures: 'Kennzahlen',
    requestsOverTime: 'Anfragen im Zeitverlauf',
    topBlockedDestinations: 'Am häufigsten blockierte Ziele',
    topBlockedCategories: 'Am häufigsten blockierte Kategorien',
    topThreats: 'Häufigste Bedrohungen',
    newDevices: 'Neue Geräte',
    layers: 'Anfragen je Ebene',
    topCategories: 'Häufigste Kategorien',
    topApps: 'Häufigste Anwendungen',
    topDestinations: 'Häufigste Ziele',
    topUsers: 'Aktivste Benutzer',
    trends: 'Entwicklung gegenüber der Vorwoche',
    blockedPerDay: 'Blockierte Anfragen pro Tag',
    privateAccess: 'Privater Zugriff je Standort',
    summary: 'Zusammenfassung',
    checks: 'Prüfungen',
  },
  columns: {
    rank: 'Nr.',
    name: 'Name',
    allowed: 'Erlaubt',
    blocked: 'Blockiert',
    device: 'Gerät',
    os: 'Betriebssystem',
    user: 'Benutzer',
    enrolled: 'Registriert',
    layer: 'Ebene',
    metric: 'Kennzahl',
    thisWeek: 'Diese Woche',
    lastWeek: 'Vorwoche',
    change: 'Veränderung',
    site: 'Standort',
    users: 'Benutzer',
    devices: 'Geräte',
    sessions: 'Sitzungen',
    duration: 'Dauer',
    data: 'Datenmenge',
    evidence: 'Nachweis',
    detail: 'Detail',
  },
  units: { minute: 'Anfragen pro Minute', hour: 'Anfragen pro Stunde', day: 'Anfragen pro Tag' },
  layers: { dns: 'DNS', network: 'Netzwerk', http: 'Web (HTTP)' },
  trendMetrics: {
    decisions: 'Anfragen',
    allowed: 'Erlaubt',
    blocked: 'Blockiert',
    threats: 'Bedrohungen',
    connections: 'Verbindungen',
    users: 'Aktive Benutzer',
    devices: 'Aktive Geräte',
    bytes: 'Datenmenge',
  },
  weeks: { current: 'Diese Woche', previous: 'Vorwoche' },
  none: 'Nichts in diesem Zeitraum.',
  status: { pass: 'Bestanden', warn: 'Warnung', fail: 'Nicht bestanden' },
  checks: {
    'admin-mfa': {
      title: 'Administratoren nutzen Zwei-Faktor-Authentifizierung',
      remediation:
        'Bitten Sie die aufgeführten Administratoren, in ihren Kontoeinstellungen die Zwei-Faktor-Authentifizierung einzuschalten, oder sperren Sie nicht mehr benötigte Konten.',
    },
    'admin-sign-in': {
      title: 'Administratoren haben sich in den letzten 90 Tagen angemeldet',
      remediation: 'Sperren oder entfernen Sie Administratorkonten, die nicht mehr genutzt werden.',
    },
    'threat-intel': {
      title: 'Threat Intelligence ist aktiviert',
      remediation:
        'Aktivieren Sie unter Richtlinien › Threat Intelligence mindestens einen Feed und beheben Sie Feeds, deren Aktualisierung fehlschlägt.',
    },
    'security-categories': {
      title: 'Sicherheitskategorien werden blockiert',
      remediation:
        'Stellen Sie die aufgeführten Kategorien unter Richtlinien › Webkategorien auf „Blockieren“ oder blockieren Sie sie in einer aktiven Richtlinie.',
    },
    'stale-devices': {
      title: 'Geräte haben sich in den letzten 30 Tagen verbunden',
      remediation: 'Deaktivieren oder löschen Sie Geräte, die sich seit 30 Tagen nicht verbunden haben.',
    },
    'device-posture': {
      title: 'Geräte bestehen ihre Sicherheitsprüfungen',
      remediation:
        'Beheben Sie die fehlgeschlagenen Prüfungen auf den aufgeführten Geräten (Festplattenverschlüsselung, Firewall, Bildschirmsperre, Virenschutz, Betriebssystem-Updates).',
    },
  },
  notes: {
    mfaOff: 'Zwei-Faktor-Authentifizierung aus',
    mfaOn: 'Zwei-Faktor-Authentifizierung an',
    neverSignedIn: 'Nie angemeldet',
    lastSignIn: 'Letzte Anmeldung',
    feedEnabled: 'Aktiviert',
    feedDisabled: 'Deaktiviert',
    feedError: 'Aktualisierung fehlgeschlagen',
    notBlocked: 'Nicht blockiert',
    blockedByTenant: 'Für den ganzen Mandanten blockiert',
    blockedByPolicy: 'Durch eine Richtlinie blockiert',
    neverSeen: 'Nie gesehen',
    lastSeen: 'Zuletzt gesehen',
    postureFailing: 'Sicherheitsprüfungen fehlgeschlagen',
  },
  remediation: 'Was zu tun ist',
  more: (count) => `… und ${count} weitere`,
  mail: {
    subject: (title, tenant) => `${title} – ${tenant}`,
    body: (title, tenant, period) =>
      `${title} für ${tenant} (${period}).\n\nDer Bericht liegt als PDF bei.\n\nSie erhalten diese E-Mail, weil ein Administrator von ${tenant} diesen Bericht in Palisade für Ihre Adresse geplant hat.`,
    verifySubject: (tenant) => `Bestätigen Sie Ihre Adresse für Palisade-Berichte – ${tenant}`,
    verifyBody: (tenant, link, days) =>
      `Ein Administrator des Palisade-Arbeitsbereichs ${tenant} möchte Sicherheitsberichte an diese Adresse senden.\n\nSie erhalten nichts, bevor Sie bestätigen. Um die Berichte zu erhalten, öffnen Sie diesen Link und bestätigen Sie:\n${link}\n\nDer Link ist ${days} Tage gültig. Wenn Sie diese Berichte nicht möchten, ignorieren Sie diese E-Mail: Sie erhalten dann keine.`,
  },
};

export const REPORT_LABELS: Record<Locale, ReportLabels> = { en, de };
