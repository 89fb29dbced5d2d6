/**
 * The signed-in session (spec §3, §4, §8): fetched at start and every 60 s while a session id is stored, kept
 * in TanStack Query under `['session']`. Also the working tenant (partner and platform admins may switch to a
 * tenant they manage, which opens it on the server in edit mode or read-only: partner-edit mode) and the wiring
 * of the API client to toasts and the router.
 */
import {
  type EmbedSession,
  embedLinkEndpoints,
  type Permission,
  type PublicConfig,
  SESSION_POLL_MS,
  type Session,
  sessionEndpoints,
  systemEndpoints,
} from '@palisade/contracts';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { analytics } from './analytics';
import { ApiError, configureApiClient, request } from './api-client';
import { useEmbedCredential } from './embed-credential';
import { changeLanguage, currentLocale, i18n } from './i18n';
import { notify } from './notify';
import {
  clearSession,
  getSessionId,
  getStoredPartner,
  saveSession,
  storeTargetValue,
  targetValue,
} from './session-store';
import { appStorage } from './storage';

/** Query key of the session. */
export const SESSION_QUERY_KEY = ['session'] as const;

/** The public client settings (`GET /api/config`), fetched once. */
export const publicConfigQuery = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => request(systemEndpoints.publicConfig, { signal, silent: true }),
  staleTime: Number.POSITIVE_INFINITY,
  meta: { isSilent: true },
});

/** The sign-in page to send a signed-out user to: the partner's when a partner name is stored. */
export function signInPath(partner: string | null = getStoredPartner()): string {
  return partner ? `/${encodeURIComponent(partner)}/sign-in` : '/sign-in';
}

/** Where sign-out lands (spec §6): the sign-out page for listed partners, else the right sign-in page. */
export function signOutPath(partner: string | null, signOutPartners: readonly string[]): string {
  if (partner && signOutPartners.includes(partner)) return '/ntgr-signout';
  return signInPath(partner);
}

/** Moves the app to a path; the router's navigate (which may return a promise that settles on arrival). */
export type NavigateFn = (path: string) => unknown;

/**
 * Connects the API client to the app: error toasts translated with i18n and shown as Mantine notifications,
 * redirects through the router. Called once at start-up; the sign-out partners arrive with the public config.
 */
export function startApiClient(navigate: NavigateFn, queryClient: QueryClient): void {
  const configure = (signOutPartners: string[]) =>
    configureApiClient({
      toast: (key, options) => {
        const message = i18n.t(key, { ...options?.values, defaultValue: options?.defaultValue ?? key });
        // One toast per message, so a burst of failing calls does not stack identical toasts.
        notify(message, { color: 'red', id: `error:${key}` });
      },
      navigate: (path) => void navigate(path),
      signOutPartners,
    });
  configure([]);
  queryClient
    .fetchQuery(publicConfigQuery)
    .then((config) => configure(config.signOutPartners))
    .catch(() => {
      // Without the config the default sign-in pages apply; the failure was reported by the query cache.
    });
}

/** A fresh session as the sign-in calls answer it. */
export type SignedInSession = Session & { sessid: string };

/** Options of a switch of the working tenant. */
export interface SwitchTenantOptions {
  /** Open the tenant in edit mode (the default) or read-only; partner and platform admins only. */
  edit?: boolean;
}

/** The roles that work in the tenants they manage in partner-edit mode (edit mode or read-only). */
const PARTNER_ROLES: readonly Session['role'][] = ['partner_admin', 'platform_admin'];

/** Whether the session is a partner's or the platform's administrator: its tenant switches open a target. */
export function isPartnerAdmin(session: Session | null): session is Session {
  return !!session && PARTNER_ROLES.includes(session.role);
}

/** What {@link useSession} returns. */
export interface SessionContextValue {
  /** The signed-in user's session, or null when signed out (or not loaded yet). */
  session: Session | null;
  /** True until the first answer of `GET /api/session` (false at once when no session id is stored). */
  isLoading: boolean;
  /** The last failure of the session call other than "no session" (network, 5xx), or null. */
  error: unknown;
  /** Stores a session that a sign-in call answered. */
  setSignedIn(session: SignedInSession): void;
  /** Ends the session on the server and here, then goes to the sign-out or sign-in page. */
  signOut(): Promise<void>;
  /** Fetches the session again (after a change to the profile or the tenant's look). */
  refresh(): Promise<void>;
  /** The tenant API calls work on: the session's, or one it manages. */
  workingTenant: string;
  /**
   * Switches the working tenant (stored under `tenant`). A partner's session opens it on the server first (edit
   * mode unless `edit` is false; its own tenant closes the opened one) and takes the session it answers; false
   * when that failed (the client showed why) and nothing changed.
   */
  setWorkingTenant(name: string, options?: SwitchTenantOptions): Promise<boolean>;
  /** Where the last sign-out went (null until one happened); the guard sends signed-out visitors there. */
  signedOutPath: string | null;
}

const SessionContext = createContext<SessionContextValue | null>(null);

async function fetchSession(signal: AbortSignal): Promise<Session | null> {
  if (!getSessionId()) return null;
  try {
    return await request(sessionEndpoints.getSession, { signal, silent: true });
  } catch (error) {
    // The client has already cleared the stored session and gone to sign-in.
    if (error instanceof ApiError && (error.status === 401 || error.errcode === 1)) return null;
    throw error;
  }
}

/**
 * The session an embedded view works with, from what its link opens (`GET /api/embed/session`): the link's
 * tenant, its reads' permissions, its tenant's look; no account, no managed tenants, nothing to sign out of.
 */
export function sessionOfEmbed(embed: EmbedSession): Session {
  return {
    userid: embed.linkId,
    username: embed.name,
    firstname: embed.name,
    lastname: '',
    usertype: 3,
    role: 'auditor',
    permissions: embed.permissions,
    customRoleName: null,
    tenant: embed.tenant,
    tenantDisplayName: embed.tenantDisplayName,
    tenantKind: embed.tenantKind,
    managedTenants: [],
    managedTenantDisplayNames: {},
    partnername: null,
    features: embed.features,
    theme: null,
    palette: null,
    tenantTheme: embed.tenantTheme,
    tenantPalette: embed.tenantPalette,
    language: null,
    totpEnabled: false,
    clientAuth: false,
    expiresAt: embed.expiresAt,
    target: null,
  };
}

/** Query key of an embedded view's session. */
export const EMBED_SESSION_QUERY_KEY = ['embed-session'] as const;

/**
 * An embedded view's session, fetched with its link's token (the API client sends it while the view is shown)
 * and checked as often as a console session, so a link revoked or expired ends on screen too.
 */
export const embedSessionQuery = queryOptions({
  queryKey: EMBED_SESSION_QUERY_KEY,
  queryFn: async ({ signal }): Promise<Session | null> => {
    try {
      return sessionOfEmbed(await request(embedLinkEndpoints.embedSession, { signal, silent: true }));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.errcode === 1)) return null;
      throw error;
    }
  },
  staleTime: SESSION_POLL_MS,
  refetchInterval: SESSION_POLL_MS,
  retry: false,
  meta: { isSilent: true },
});

/** The session query: polled every {@link SESSION_POLL_MS} while a session id is stored. */
export const sessionQuery = queryOptions({
  queryKey: SESSION_QUERY_KEY,
  queryFn: ({ signal }) => fetchSession(signal),
  staleTime: SESSION_POLL_MS,
  refetchInterval: () => (getSessionId() ? SESSION_POLL_MS : false),
  refetchOnWindowFocus: () => Boolean(getSessionId()),
  retry: false,
  meta: { isSilent: true },
});

/** Whether the session may work in `tenant`: its own, or one it manages (the rule of the tenant switch). */
export function canWorkIn(session: Session | null, tenant: string): boolean {
  return !!session && (tenant === session.tenant || session.managedTenants.includes(tenant));
}

function pickWorkingTenant(session: Session | null, stored: string | null): string {
  if (!session) return stored ?? '';
  if (stored && canWorkIn(session, stored)) return stored;
  return session.tenant;
}

/** Props of {@link SessionProvider}. */
export interface SessionProviderProps {
  /** The router's navigate (the app passes `router.navigate`, tests a MemoryRouter's). */
  navigate: NavigateFn;
  children: ReactNode;
}

/** Holds the session for the app; everything under it may call {@link useSession}. */
export function SessionProvider({ navigate, children }: SessionProviderProps) {
  const queryClient = useQueryClient();
  // While an embedded dashboard is shown, its link's session (lib/embed-credential.ts); the console's otherwise.
  const { token: embedToken } = useEmbedCredential();
  const query = useQuery(embedToken ? (embedSessionQuery as unknown as typeof sessionQuery) : sessionQuery);
  const session = query.data ?? null;
  const [storedTenant, setStoredTenant] = useState(() => appStorage.get('tenant'));

  const setSignedIn = useCallback(
    (next: SignedInSession) => {
      saveSession(next);
      setStoredTenant(next.tenant);
      setSignedOutPath(null);
      // Another user's tenant data must not show, even for a moment.
      queryClient.removeQueries({ queryKey: ['tenant'] });
      const { sessid: _sessid, ...rest } = next;
      queryClient.setQueryData<Session | null>(SESSION_QUERY_KEY, rest);
    },
    [queryClient],
  );

  const [signedOutPath, setSignedOutPath] = useState<string | null>(null);
  const signOut = useCallback(async () => {
    const partner = getStoredPartner();
    try {
      await request(sessionEndpoints.signOut);
    } catch {
      // The session may be gone already; the local sign-out below happens either way.
    }
    const config =
      queryClient.getQueryData<PublicConfig>(publicConfigQuery.queryKey) ??
      (await queryClient.fetchQuery(publicConfigQuery).catch(() => null));
    const target = signOutPath(partner, config?.signOutPartners ?? []);
    // Remembered for the session guard: once the partner name is cleared it could not work this page out.
    setSignedOutPath(target);
    clearSession();
    analytics.reset();
    setStoredTenant(null);
    queryClient.setQueryData(SESSION_QUERY_KEY, null);
    await navigate(target);
    // Screens still on their way out keep their queries until they unmount; the next sign-in drops those.
    queryClient.removeQueries({
      type: 'inactive',
      predicate: (q) => q.queryKey[0] !== 'config' && q.queryKey[0] !== 'session',
    });
  }, [navigate, queryClient]);

  const refresh = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
  }, [queryClient]);

  const setWorkingTenant = useCallback(
    async (name: string, options: SwitchTenantOptions = {}) => {
      const current = queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY) ?? null;
      if (isPartnerAdmin(current)) {
        let next: Session;
        try {
          next = await request(sessionEndpoints.openTarget, {
            params: { tenant: name },
            body: { edit: options.edit ?? true },
          });
        } catch {
          // The client has shown the error; the working tenant stays as it was.
          return false;
        }
        // A poll sent before the switch would answer the old target over the new one.
        await queryClient.cancelQueries({ queryKey: SESSION_QUERY_KEY });
        const { sessid: _sessid, ...rest } = next;
        queryClient.setQueryData<Session | null>(SESSION_QUERY_KEY, rest);
        storeTargetValue(targetValue(rest));
      }
      appStorage.set('tenant', name);
      setStoredTenant(name);
      return true;
    },
    [queryClient],
  );

  // The stored `target` follows the session however it arrives (sign-in, a switch, the poll).
  const target = session ? targetValue(session) : undefined;
  useEffect(() => storeTargetValue(target), [target]);

  const language = session?.language ?? null;
  useEffect(() => {
    if (language && language !== currentLocale()) void changeLanguage(language);
  }, [language]);

  const userId = embedToken ? null : (session?.userid ?? null);
  useEffect(() => {
    if (userId) analytics.identify(userId);
  }, [userId]);

  const workingTenant = pickWorkingTenant(session, storedTenant);
  const value = useMemo<SessionContextValue>(
    () => ({
      session,
      isLoading: query.isPending,
      error: query.error,
      setSignedIn,
      signOut,
      refresh,
      workingTenant,
      setWorkingTenant,
      signedOutPath,
    }),
    [
      session,
      query.isPending,
      query.error,
      setSignedIn,
      signOut,
      refresh,
      workingTenant,
      setWorkingTenant,
      signedOutPath,
    ],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

function useSessionContext(): SessionContextValue {
  const context = useContext(SessionContext);
  if (!context) throw new Error('useSession must be used inside <SessionProvider>');
  return context;
}

/** The session and the sign-in/sign-out actions. */
export function useSession(): Pick<
  SessionContextValue,
  'session' | 'isLoading' | 'error' | 'setSignedIn' | 'signOut' | 'refresh'
> {
  return useSessionContext();
}

/** The tenant name to use in API paths: the session's tenant unless the user switched to one it manages. */
export function useWorkingTenant(): string {
  return useSessionContext().workingTenant;
}

/**
 * Shows its children `tenant` as the working tenant without storing it: an embedded dashboard names its tenant in
 * its path, and the console open in other tabs keeps its own choice. The caller checks {@link canWorkIn} first.
 */
export function WorkingTenantScope({ tenant, children }: { tenant: string; children: ReactNode }) {
  const context = useSessionContext();
  const value = useMemo(() => ({ ...context, workingTenant: tenant }), [context, tenant]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/**
 * Switches the working tenant; the name must be the session's tenant or one of its `managedTenants`. For a
 * partner's session this opens the tenant on the server (see {@link SessionContextValue.setWorkingTenant}).
 */
export function useSetWorkingTenant(): SessionContextValue['setWorkingTenant'] {
  return useSessionContext().setWorkingTenant;
}

/**
 * Where a visitor without a session goes: the page the last sign-out went to, else the partner's sign-in page
 * when a partner name is stored, else `/sign-in`.
 */
export function useSignInRedirectPath(): string {
  return useSessionContext().signedOutPath ?? signInPath();
}

/**
 * Whether the signed-in user holds a permission (false when signed out): the session's effective permissions,
 * a built-in role's or a custom role's. The server still checks.
 */
export function useCan(permission: Permission): boolean {
  const { session } = useSessionContext();
  return session ? session.permissions.includes(permission) : false;
}
