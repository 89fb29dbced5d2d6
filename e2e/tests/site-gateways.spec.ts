import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

/**
 * The devices journeys of issue 11: an administrator adds a site gateway and configures a LAN, a VLAN and port
 * forwards (a duplicate forward is refused, naming the ip and both sources); an end user enrols a device through
 * their link and downloads its WireGuard configuration, and the administrator finds the device in the list.
 */

const cell = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

test('add a site gateway and configure LAN, VLAN and port forwards; a duplicate forward is refused', async ({
  page,
}) => {
  const name = `Shop ${Date.now().toString(36)}`;
  await signIn(page, 'admin@acme.example');
  await page.goto('/devices/new/add');
  await page.getByRole('button', { name: 'Add site gateway' }).click();
  const form = page.getByRole('dialog', { name: 'Add gateway' });
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Site / location' }).fill('Leipzig');
  await form.getByRole('button', { name: 'Add gateway' }).click();
  const added = page.getByRole('dialog', { name: 'Gateway added: enrol it' });
  await expect(added.getByLabel('Enrolment token')).toHaveText(/^gwe_/);
  await added.getByRole('link', { name: 'Open its device page' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // LAN 1 with DHCP, a VLAN tagged on it.
  await page.getByRole('button', { name: 'Add LAN' }).click();
  await cell(page, 'Name of LAN row 1').fill('Shop floor');
  await cell(page, 'Gateway address of LAN row 1').fill('192.168.50.1');
  await cell(page, 'Prefix length of LAN row 1').fill('24');
  await page.getByRole('tab', { name: 'VLANs' }).click();
  await page.getByRole('button', { name: 'Add VLAN' }).click();
  await cell(page, 'VLAN ID of VLAN row 1').fill('20');
  await cell(page, 'Name of VLAN row 1').fill('Guests');
  await cell(page, 'Gateway address of VLAN row 1').fill('192.168.60.1');
  await cell(page, 'Prefix length of VLAN row 1').fill('24');

  // Two forwards to the same internal host for overlapping sources.
  await page.getByRole('tab', { name: 'Port forwards' }).click();
  for (const [row, label, ports] of [
    [1, 'Web', '443'],
    [2, 'Admin', '8443'],
  ] as const) {
    await page.getByRole('button', { name: 'Add port forward' }).click();
    await cell(page, `Name of port forward ${row}`).fill(label);
    await cell(page, `External ports of port forward ${row}`).fill(ports);
    await cell(page, `Internal host of port forward ${row}`).fill('192.168.50.10');
  }
  await page.getByRole('button', { name: 'Save configuration' }).click();
  const duplicate = page.getByText('192.168.50.10 is forwarded twice for overlapping sources: any and any.');
  await expect(duplicate).toBeVisible();
  await expect(cell(page, 'Internal host of port forward 2')).toHaveAttribute('aria-invalid', 'true');

  // Another host for the second: saved, and the gateway will receive it with its bundle.
  await cell(page, 'Internal host of port forward 2').fill('192.168.60.20');
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText(`Configuration of “${name}” saved.`, { exact: false })).toBeVisible();
  await expect(duplicate).toHaveCount(0);

  // What the server keeps is what was entered.
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };
  const id = new URL(page.url()).pathname.split('/').pop();
  const saved = await (await page.request.get(`/api/devices/acme/${id}/site-config`, { headers })).json();
  expect(saved.lans).toMatchObject([{ id: 1, name: 'Shop floor', address: '192.168.50.1', prefix: 24 }]);
  expect(saved.vlans).toMatchObject([{ vlanId: 20, name: 'Guests', lanId: 1 }]);
  expect(saved.portForwards.map((f: { ip: string }) => f.ip)).toEqual(['192.168.50.10', '192.168.60.20']);
});

test('an end user enrols a device with their link and downloads its WireGuard configuration', async ({
  page,
  browser,
}) => {
  const suffix = Date.now().toString(36);
  const username = `roamer-${suffix}@acme.example`;
  await signIn(page, 'admin@acme.example');
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };
  const created = await page.request.post('/api/subscriber/user/acme', {
    headers,
    data: { username, firstname: 'Rita', lastname: `Roamer ${suffix}` },
  });
  expect(created.status()).toBe(201);

  // The administrator creates the link on /devices/add: the link and its QR code.
  await page.goto('/devices/add');
  const picker = page.getByRole('combobox', { name: 'End user' });
  await picker.fill(suffix);
  await page.getByRole('option', { name: new RegExp(username) }).click();
  await page.getByRole('button', { name: 'Create enrolment link' }).click();
  await page
    .getByRole('dialog', { name: 'Send enrolment link' })
    .getByRole('button', { name: 'Create link' })
    .click();
  const linkBox = page.getByRole('dialog', { name: 'Link created' });
  await expect(linkBox.getByRole('img', { name: /QR code of the enrolment link/ })).toBeVisible();
  const link = ((await linkBox.getByLabel('Enrolment link', { exact: true }).textContent()) ?? '').trim();
  await linkBox.getByRole('button', { name: 'Done' }).click();

  // The user, in a browser of their own: the key pair is made there, the configuration downloaded.
  const userPage = await browser.newPage();
  await userPage.goto(new URL(link).pathname);
  await userPage.getByRole('textbox', { name: 'Device name' }).fill(`Rita's laptop`);
  await userPage.getByRole('button', { name: 'Create the configuration' }).click();
  await expect(userPage.getByRole('img', { name: 'QR code of the WireGuard configuration' })).toBeVisible();
  const download = userPage.waitForEvent('download');
  await userPage.getByRole('button', { name: /^Download palisade-/ }).click();
  const file = await (await download).path();
  const config = readFileSync(file, 'utf8');
  expect(config).toMatch(/^\[Interface\]/m);
  expect(config).toMatch(/^PrivateKey = [A-Za-z0-9+/]{43}=$/m);
  expect(config).toMatch(/^Address = 100\.64\.\d+\.\d+\/32$/m);
  expect(config).toMatch(/^\[Peer\]/m);
  await userPage.close();

  // The device is in the inventory, under its owner, active.
  await page.goto(`/devices/list?q=${suffix}`);
  const row = page.getByRole('row').filter({ hasText: `Rita's laptop` });
  await expect(row.getByText(username)).toBeVisible();
  await expect(row.getByText('Active')).toBeVisible();
  await row.getByRole('link', { name: `Rita's laptop` }).click();
  await expect(page.getByRole('region', { name: 'WireGuard' })).toContainText(/100\.64\.\d+\.\d+/);
});

test('publish a private service behind a site gateway to a group; an address outside its LANs is refused', async ({
  page,
}) => {
  const suffix = Date.now().toString(36);
  const service = `Wiki ${suffix}`;
  await signIn(page, 'admin@acme.example');
  await page.goto('/devices/spa/service');
  await page.getByRole('button', { name: 'Publish a service' }).first().click();
  const form = page.getByRole('dialog', { name: 'Publish a service' });
  await form.getByRole('textbox', { name: 'Name' }).fill(service);
  await form.getByRole('combobox', { name: 'Site gateway' }).click();
  await page.getByRole('option', { name: /^HQ Berlin/ }).click();
  // Not in HQ Berlin's LANs: the server says where it must be.
  await form.getByRole('textbox', { name: 'Internal address' }).fill('10.250.0.5');
  await form.getByRole('textbox', { name: 'Ports' }).fill('443');
  await form.getByRole('button', { name: 'Publish service' }).click();
  await expect(
    form.getByText('The internal host must be an address of a LAN or VLAN network.'),
  ).toBeVisible();

  await form.getByRole('textbox', { name: 'Internal address' }).fill('192.168.10.20');
  await form.getByRole('combobox', { name: 'Groups' }).click();
  await page.getByRole('option', { name: 'Engineering' }).click();
  await form.getByRole('button', { name: 'Publish service' }).click();
  await expect(page.getByText(`Service ${service} published.`)).toBeVisible();

  const row = page.getByRole('row').filter({ hasText: service });
  await expect(row.getByText('192.168.10.20')).toBeVisible();
  await expect(row.getByRole('list', { name: `Groups who may reach ${service}` })).toContainText(
    'Engineering',
  );

  // HQ Berlin's bundle now guards the host for the group's devices.
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };
  const list = await (await page.request.get('/api/devices/acme/spa/services', { headers })).json();
  expect(list.items.find((s: { name: string }) => s.name === service)).toMatchObject({
    address: '192.168.10.20',
    ports: '443',
    groups: [{ name: 'Engineering' }],
  });
});
