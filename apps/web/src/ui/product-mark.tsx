import { Group, Text, ThemeIcon, UnstyledButton } from "@mantine/core";
import { IconStack2 } from "@tabler/icons-react";
import { Link } from "react-router-dom";

/** The "Hangar" wordmark; links home. */
export function ProductMark({ to = "/", size = "md" }: { to?: string; size?: "sm" | "md" | "lg" }) {
  const icon = size === "lg" ? 36 : size === "sm" ? 26 : 30;
  return (
    <UnstyledButton component={Link} to={to} aria-label="Hangar home" data-testid="product-mark">
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={icon} radius="md" variant="filled" color="brand" aria-hidden>
          <IconStack2 size={icon * 0.6} stroke={1.8} />
        </ThemeIcon>
        <Text fw={700} fz={size === "lg" ? 24 : size === "sm" ? 16 : 19} lts={-0.3}>
          Hangar
        </Text>
      </Group>
    </UnstyledButton>
  );
}
