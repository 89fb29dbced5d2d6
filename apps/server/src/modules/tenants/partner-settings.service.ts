import { createHash } from 'node:crypto';
import {
  LOGO_TYPES,
  type LogoType,
  MAX_LOGO_BYTES,
  type PartnerBranding,
  type PartnerInfo,
  type PartnerSettings,
  type PartnerSettingsUpdate,
  partnerShortname,
} from '@palisade/contracts';
import type { Database } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { forbidden, invalid, notFound } from '../../lib/errors';
import * as repo from './partner-settings.repository';

/** The public address of a partner's logo; its version changes with the bytes, so it can be cached for long. */
export const logoUrl = (row: Pick<repo.PartnerRow, 'name' | 'logoSha256'>): string | null =>
  row.logoSha256
    ? `/api/partner/${encodeURIComponent(row.name)}/logo?v=${row.logoSha256.slice(0, 16)}`
    : null;

function presentSettings(row: repo.PartnerRow): PartnerSettings {
  return {
    name: row.name,
    displayName: row.displayName,
    primaryColor: row.primaryColor,
    accentColor: row.accentColor,
    logo: logoUrl(row),
    support: {
      email: row.supportEmail,
      phone: row.supportPhone,
      url: row.supportUrl,
      hours: row.supportHours,
    },
  };
}

/**
 * The partner whose settings `ctx` works on: its own partner tenant for a partner admin, any partner for a
 * platform admin. Other roles are refused (403); a tenant that is not a partner has no settings (404).
 */
async function partnerOf(database: Database, ctx: Ctx): Promise<repo.PartnerRow> {
  if (ctx.actor.role !== 'partner_admin' && ctx.actor.role !== 'platform_admin') throw forbidden();
  const row = await repo.findPartnerRow(database.db, { id: ctx.tenant.id });
  if (row?.kind !== 'partner') throw notFound('Partner');
  return row;
}

export async function getPartnerSettings(database: Database, ctx: Ctx): Promise<PartnerSettings> {
  return presentSettings(await partnerOf(database, ctx));
}

/** Changes a partner's display name, colours and support contact; recorded in the partner's log. */
export async function updatePartnerSettings(
  database: Database,
  ctx: Ctx,
  body: PartnerSettingsUpdate,
): Promise<PartnerSettings> {
  const row = await partnerOf(database, ctx);
  const before = presentSettings(row);
  await database.tenantTx(row.id, async (tx) => {
    await repo.updatePartnerSettings(tx, row.id, {
      displayName: body.displayName,
      primaryColor: body.primaryColor,
      accentColor: body.accentColor,
      supportEmail: body.support.email,
      supportPhone: body.support.phone,
      supportUrl: body.support.url,
      supportHours: body.support.hours,
    });
    await recordEvent(tx, ctx, {
      action: 'partner.settings.update',
      objectType: 'tenant',
      objectId: row.id,
      objectName: row.name,
      before: { ...before, logo: undefined },
      after: { ...before, ...body, logo: undefined },
    });
  });
  return getPartnerSettings(database, ctx);
}

/** The image type of a file by its first bytes (magic numbers), whatever it was declared as. */
export function sniffImageType(bytes: Buffer): LogoType | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return null;
}

const logoRefused = (message: string, values?: Record<string, string>) =>
  invalid([{ path: 'body.logo', message, ...(values ? { values } : {}) }]);

/**
 * Checks an uploaded logo: a PNG, JPEG or WebP (declared so, and its bytes say the same: a renamed SVG or a
 * broken file is refused), of at most {@link MAX_LOGO_BYTES}. Answers its type, or throws a 400 on `body.logo`.
 */
export function checkLogo(contentType: string | undefined, body: unknown): { type: LogoType; bytes: Buffer } {
  const declared = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!(LOGO_TYPES as readonly string[]).includes(declared)) throw logoRefused('validation.logoType');
  if (!Buffer.isBuffer(body) || body.length === 0) throw logoRefused('validation.required');
  if (body.length > MAX_LOGO_BYTES) {
    throw logoRefused('validation.logoTooLarge', { max: String(MAX_LOGO_BYTES / 1024) });
  }
  const actual = sniffImageType(body);
  if (actual !== declared) throw logoRefused('validation.logoContent');
  return { type: actual, bytes: body };
}

/** Stores a partner's logo (checked by {@link checkLogo}); recorded in the partner's log. */
export async function uploadPartnerLogo(
  database: Database,
  ctx: Ctx,
  contentType: string | undefined,
  body: unknown,
): Promise<PartnerSettings> {
  const row = await partnerOf(database, ctx);
  const { type, bytes } = checkLogo(contentType, body);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await database.tenantTx(row.id, async (tx) => {
    await repo.putLogo(tx, row.id, { contentType: type, bytes, sha256 });
    await recordEvent(tx, ctx, {
      action: 'partner.logo.update',
      objectType: 'tenant',
      objectId: row.id,
      objectName: row.name,
      before: { logo: row.logoSha256 },
      after: { logo: sha256, type, bytes: bytes.length },
    });
  });
  return getPartnerSettings(database, ctx);
}

export async function deletePartnerLogo(database: Database, ctx: Ctx): Promise<PartnerSettings> {
  const row = await partnerOf(database, ctx);
  await database.tenantTx(row.id, async (tx) => {
    if (!(await repo.deleteLogo(tx, row.id))) return;
    await recordEvent(tx, ctx, {
      action: 'partner.logo.update',
      objectType: 'tenant',
      objectId: row.id,
      objectName: row.name,
      before: { logo: row.logoSha256 },
      after: { logo: null },
    });
  });
  return getPartnerSettings(database, ctx);
}

/** A partner's logo by the partner's name, for the public address; null when there is none. */
export async function partnerLogo(database: Database, name: string) {
  const row = await repo.findPartnerRow(database.db, { name });
  if (row?.kind !== 'partner' || !row.logoSha256) return null;
  return (await database.tenantTx(row.id, (tx) => repo.readLogo(tx, row.id))) ?? null;
}

/** A partner's public sign-in branding (`GET /api/partner/{name}`), or null when there is no such partner. */
export async function partnerBranding(database: Database, name: string): Promise<PartnerBranding | null> {
  const row = await repo.findPartnerRow(database.db, { name });
  if (row?.kind !== 'partner') return null;
  return {
    name: row.name,
    displayName: row.displayName,
    primaryColor: row.primaryColor,
    accentColor: row.accentColor,
    logo: logoUrl(row),
  };
}

/**
 * The partner of tenant `name` as its users see it (spec §7 `partner/info/{id}`): for the caller's own tenant, or a
 * tenant it manages (a partner admin its customers, a platform admin any); anything else, and a tenant without a
 * partner, is 404. A partner's own users get their own partner.
 */
export async function getPartnerInfo(database: Database, ctx: Ctx, name: string): Promise<PartnerInfo> {
  const { actor } = ctx;
  const tenant = await repo.findPartnerRow(database.db, { name });
  const reaches =
    tenant &&
    (tenant.id === actor.tenantId ||
      actor.role === 'platform_admin' ||
      (actor.role === 'partner_admin' && tenant.parentId === actor.tenantId));
  if (!tenant || !reaches) throw notFound('Tenant');
  const partner =
    tenant.kind === 'partner'
      ? tenant
      : tenant.parentId
        ? await repo.findPartnerRow(database.db, { id: tenant.parentId })
        : null;
  if (partner?.kind !== 'partner') throw notFound('Partner');
  const settings = presentSettings(partner);
  return {
    name: partner.name,
    displayName: partner.displayName,
    partnername: partnerShortname(partner.name),
    primaryColor: settings.primaryColor,
    accentColor: settings.accentColor,
    logo: settings.logo,
    support: settings.support,
  };
}

/**
 * What a tenant's public pages show of it (the block page): its own display name with its partner's colours and
 * logo (a tenant without a partner: its own colours, no logo). Null when there is no tenant with that id (`id` must
 * be a UUID).
 */
export async function tenantPublicBranding(database: Database, id: string) {
  const tenant = await repo.findPartnerRow(database.db, { id });
  if (!tenant || tenant.kind === 'platform') return null;
  const partner =
    tenant.kind === 'customer' && tenant.parentId
      ? await repo.findPartnerRow(database.db, { id: tenant.parentId })
      : null;
  const brand = partner?.kind === 'partner' ? partner : tenant;
  return {
    tenantId: tenant.id,
    displayName: tenant.displayName,
    primaryColor: brand.primaryColor,
    accentColor: brand.accentColor,
    logo: brand.kind === 'partner' ? logoUrl(brand) : null,
  };
}
