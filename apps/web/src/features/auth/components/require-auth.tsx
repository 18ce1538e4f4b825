import type { User } from "@hangar/contract";
import { Center, Container } from "@mantine/core";
import { createContext, useContext } from "react";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { errorMessage } from "../../../lib/api-client";
import { CenteredLoader } from "../../../ui/centered-loader";
import { ErrorState } from "../../../ui/error-state";
import { useMe, wasSignedOutOnPurpose } from "../api";

/** Guard for app routes: signed-out visitors go to /a/login?next=<where they were going>. */
export function RequireAuth() {
  const me = useMe();
  const location = useLocation();

  if (me.isPending) return <CenteredLoader fullPage label="Checking your session…" />;
  if (me.isError) {
    return (
      <Center mih="100dvh">
        <Container size={480}>
          <ErrorState
            title="Cannot reach Hangar"
            message={errorMessage(me.error, "Failed to check your session")}
            onRetry={() => me.refetch()}
            retrying={me.isFetching}
          />
        </Container>
      </Center>
    );
  }
  if (!me.data) {
    if (wasSignedOutOnPurpose()) return <Navigate to="/a/login" replace />;
    const next = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/a/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return (
    <CurrentUserContext.Provider value={me.data}>
      <Outlet />
    </CurrentUserContext.Provider>
  );
}

// Read from context, not from the query: while signing out, children may render once more after the
// cached user became null, before the guard above unmounts them.
const CurrentUserContext = createContext<User | null>(null);

/** The signed-in user; only valid below RequireAuth. */
export function useCurrentUser(): User {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error("useCurrentUser() used outside RequireAuth");
  return user;
}
