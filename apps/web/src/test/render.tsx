import { MantineProvider } from "@mantine/core";
import { Notifications, notifications } from "@mantine/notifications";
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, configure, type RenderOptions, render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement, ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, vi } from "vitest";
import { createQueryClient } from "../app/query-client";
import { theme } from "../app/theme";

/**
 * Renders a component as the app does (app/app.tsx): the Mantine theme, a fresh query client with the
 * app's own policy, the toasts, and a router (in memory, at `route`). Mantine's test environment turns
 * transitions and portals off, so dialogs and toasts are in the tree at once.
 */
export interface AppRenderOptions extends Omit<RenderOptions, "wrapper"> {
  /** The URL the router starts at. */
  route?: string;
  /** userEvent's options; pass `advanceTimers` with vitest's fake timers. */
  userOptions?: Parameters<typeof userEvent.setup>[0];
}

export function renderWithApp(ui: ReactElement, options: AppRenderOptions = {}) {
  const { route = "/", userOptions, ...rest } = options;
  const onSessionLost = vi.fn();
  const queryClient = createQueryClient(onSessionLost);
  // The app's retry policy (4xx never, others once), without its back-off wait.
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retryDelay: 0 },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme} defaultColorScheme="light" env="test">
      <QueryClientProvider client={queryClient}>
        <Notifications />
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
  // No pause between keystrokes: typing is instant, as in a fast user.
  const user = userEvent.setup({ delay: null, ...userOptions });
  return { ...render(ui, { wrapper, ...rest }), user, queryClient, onSessionLost };
}

// A component test renders and types for real: a few seconds on two busy cores, more than the
// default 5 s at worst. Waits inside tests stay condition-based (findBy*, waitFor).
vi.setConfig({ testTimeout: 20_000 });
// findBy*/waitFor wait for their condition; testing-library's default 1 s ran out on two busy cores
// (a password save's request had not been sent yet). The bound only ends a test that will never pass.
configure({ asyncUtilTimeout: 10_000 });

// happy-dom has no FontFaceSet; Mantine's autosizing Textarea listens to it for fonts loading.
if (!("fonts" in document)) {
  Object.defineProperty(document, "fonts", {
    configurable: true,
    value: Object.assign(new EventTarget(), { ready: Promise.resolve() }),
  });
}

// Vitest's globals are off, so Testing Library cannot register its own cleanup; toasts live in a
// module-level store that outlives each render.
afterEach(() => {
  cleanup();
  notifications.clean();
});
