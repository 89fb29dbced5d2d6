import { Box, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import type { PartnerBranding } from '@palisade/contracts';
import type { ReactNode } from 'react';

/** Props of {@link AuthCard}. */
export interface AuthCardProps {
  /** The page title, the screen's only `<h1>`. */
  title: ReactNode;
  /** A line under the title. */
  description?: ReactNode;
  /** A partner's branding, shown above the title. */
  branding?: PartnerBranding | null;
  children?: ReactNode;
  /** Links under the card's content, e.g. "Create an account". */
  footer?: ReactNode;
}

/**
 * The card of the sign-in, sign-up and verification screens, inside the shell's auth layout (which carries
 * the Palisade brand and the language menu). A partner's logo, name and colour head the card when given.
 * The forms in these cards ask only for what they need, so every field is required: they keep `required`
 * (announced as such) but show no asterisks, which would mark every field alike.
 */
export function AuthCard({ title, description, branding, children, footer }: AuthCardProps) {
  const accent = branding?.primaryColor ?? undefined;
  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={460}>
      <Stack gap="lg">
        {branding ? (
          <Stack gap="sm">
            <Group gap="sm" wrap="nowrap">
              {branding.logo ? (
                // The name follows as text, so the logo is decorative for screen readers.
                <Image src={branding.logo} alt="" h={40} w="auto" fit="contain" />
              ) : null}
              <Text fw={700} fz="lg" c={accent}>
                {branding.displayName}
              </Text>
            </Group>
            {accent || branding.accentColor ? (
              // The partner's second colour, when it set one, underlines its name.
              <Box h={3} bg={branding.accentColor ?? accent} style={{ borderRadius: 2 }} aria-hidden />
            ) : null}
          </Stack>
        ) : null}
        <Stack gap={4}>
          <Title order={1} size="h3">
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Stack>
        {children}
        {footer ? (
          <Stack gap={6} align="center" fz="sm">
            {footer}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
