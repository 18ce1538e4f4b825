import { Progress } from "@mantine/core";
import { useNavigation } from "react-router-dom";

/**
 * While a navigation waits for a page's chunk (routes load on demand), the old page stays and this
 * bar runs along the top edge, so a click never looks ignored.
 */
export function NavigationProgress() {
  const loading = useNavigation().state === "loading";
  if (!loading) return null;
  return (
    <Progress
      value={100}
      animated
      striped
      size={3}
      radius={0}
      aria-label="Loading page"
      style={{ position: "fixed", top: 0, left: 0, right: 0, zIndex: 1000 }}
    />
  );
}
