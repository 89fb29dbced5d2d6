import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

test('importing a 10 000-row CSV with some bad rows creates the good ones and lists the bad ones by line', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const lines = ['username,firstname,lastname,email,groups,isprvaccess,issiauser,isxdrenabled,suci'];
  for (let i = 0; i < 10_000; i++)
    lines.push(`imp${stamp}.${i}@globex.example,Import,Row${i},,Sales,${i % 2 === 0},false,false,`);
  lines[101] = 'not-an-email,Bad,Mail,,,,,,'; // line 102 of the file
  lines[5001] = `imp${stamp}.5000@globex.example,No,Flag,,,maybe,,,`; // line 5002
  lines[9001] = `imp${stamp}.1@globex.example,Twice,Named,,,,,,`; // line 9002: a name used earlier in the file

  await signIn(page, 'admin@globex.example');
  await page.goto('/users/list');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import users from CSV' });
  await dialog
    .getByLabel('CSV file')
    .setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await dialog.getByRole('radio', { name: 'Import valid rows, report the rest' }).check();
  await dialog.getByRole('button', { name: 'Check the file' }).click();

  // The preview says what would happen, and nothing is saved yet.
  await expect(dialog.getByText('9,997 users would be created')).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByRole('table', { name: 'Row errors' }).getByRole('row')).toHaveCount(4);
  await dialog.getByRole('button', { name: 'Import' }).click();

  await expect(dialog.getByText('9,997 users created')).toBeVisible({ timeout: 60_000 });
  const errors = dialog.getByRole('table', { name: 'Row errors' });
  await expect(errors.getByRole('row')).toHaveCount(4); // header + three bad lines
  await expect(errors).toContainText('102');
  await expect(errors).toContainText('Enter a valid e-mail address.');
  await expect(errors).toContainText('5,002');
  await expect(errors).toContainText('9,002');
  await dialog.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill(`imp${stamp}.77@`);
  await expect(page.getByRole('main').getByRole('link', { name: 'Import Row77', exact: true })).toBeVisible();
});
