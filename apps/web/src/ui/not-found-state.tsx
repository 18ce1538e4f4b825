import { Button } from "@mantine/core";
import { IconMapOff } from "@tabler/icons-react";
import { Link } from "react-router-dom";
import { usePageTitle } from "../lib/page-title";
import { EmptyPanel } from "./empty-panel";

/**
 * "Nothing here" for a path or an object that does not exist (or that the user may not see): what
 * the page is about, so its title is the page's h1 and its document title.
 */
export function NotFoundState({
  title = "Page not found",
  description = "The page you are looking for does not exist or has moved.",
  backTo = "/",
  backLabel = "Go home",
}: {
  title?: string;
  description?: string;
  backTo?: string;
  backLabel?: string;
}) {
  usePageTitle(title);
  return (
    <EmptyPanel
      headingOrder={1}
      testId="not-found"
      icon={<IconMapOff size={28} />}
      title={title}
      description={description}
      action={
        <Button component={Link} to={backTo} variant="light">
          {backLabel}
        </Button>
      }
    />
  );
}
