import { lazyNamed, WhenOpened } from "../../lib/deferred";
import type { ShareTarget } from "./api";

// The dialog's code loads the first time it opens: not part of the grid's first load.
const ShareDialog = lazyNamed(() => import("./share-dialog"), "ShareDialog");
const ShareManyDialog = lazyNamed(() => import("./share-many-dialog"), "ShareManyDialog");

/** The share dialog for one item, or for many (each its own link), mounted once first opened. */
export function ShareButtonDialog(props: {
  opened: boolean;
  onClose(): void;
  targets: ShareTarget[];
  names: string[];
}) {
  const { targets } = props;
  return (
    <WhenOpened open={props.opened}>
      {targets.length === 1 ? (
        <ShareDialog
          opened={props.opened}
          onClose={props.onClose}
          target={targets[0]!}
          itemName={props.names[0] ?? ""}
        />
      ) : (
        <ShareManyDialog opened={props.opened} onClose={props.onClose} targets={targets} names={props.names} />
      )}
    </WhenOpened>
  );
}
