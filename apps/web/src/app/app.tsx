import { NOTIFICATION_TIMEOUT_MS } from "@hangar/contract";
import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router-dom";
import { endSession } from "../features/auth";
import { createQueryClient } from "./query-client";
import { router } from "./router";
import { theme } from "./theme";

const queryClient = createQueryClient(endSession);

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider labels={{ confirm: "Confirm", cancel: "Cancel" }}>
          <Notifications position="bottom-right" autoClose={NOTIFICATION_TIMEOUT_MS} limit={4} />
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
