import { Alert, ColorInput, MantineProvider, Modal, PasswordInput } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import de from '../../public/locales/de/translation.json';
import { buildMantineTheme, resolveAppearance, type ThemeLabels } from './theme';

/** The labels as the app's provider passes them in German (app/provider.tsx). */
const GERMAN: ThemeLabels = {
  close: de.common.close,
  showPassword: de.common.showPassword,
  pickColour: de.common.pickColour,
};

function renderInGerman(ui: React.ReactNode) {
  return render(
    <MantineProvider theme={buildMantineTheme(resolveAppearance({}), GERMAN)}>{ui}</MantineProvider>,
  );
}

describe('controls Mantine draws itself', () => {
  it('name the show-password toggle in the given language and keep it in the tab order', () => {
    renderInGerman(<PasswordInput label="Passwort" />);
    const toggle = screen.getByRole('button', { name: 'Passwort anzeigen' });
    expect(toggle).toHaveAttribute('tabindex', '0');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });

  it('name the close buttons of dialogs and alerts in the given language', () => {
    renderInGerman(
      <>
        <Modal opened onClose={() => {}} title="Dialog">
          Inhalt
        </Modal>
        <Alert withCloseButton onClose={() => {}} title="Hinweis">
          Text
        </Alert>
      </>,
    );
    expect(screen.getAllByRole('button', { name: 'Schließen', hidden: true })).toHaveLength(2);
  });

  it("name a colour input's pick-from-screen button in the given language", () => {
    // The eye dropper shows only where the browser has one.
    Object.defineProperty(window, 'EyeDropper', { value: class {}, configurable: true });
    renderInGerman(<ColorInput label="Farbe" />);
    expect(screen.getByRole('button', { name: 'Farbe vom Bildschirm aufnehmen' })).toBeInTheDocument();
  });
});
