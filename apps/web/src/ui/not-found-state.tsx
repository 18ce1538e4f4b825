import { Button } from "@mantine/core";
import { IconMapOff } from "@tabler/icons-react";
import { Link } from "react-router-dom";
import { EmptyPanel } from "./empty-panel";

/** "Nothing here" for a path or an object that does not exist (or that the user may not see). */
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
  return (
    <EmptyPanel
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
