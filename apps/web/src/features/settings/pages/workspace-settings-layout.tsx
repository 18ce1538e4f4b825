import { canAdmin } from "@hangar/contract";
import { Tabs } from "@mantine/core";
import {
  IconCreditCard,
  IconForms,
  IconInfoCircle,
  IconKey,
  IconLink,
  IconListDetails,
  IconWebhook,
} from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { Outlet, useLocation, useNavigate } from "react-router-dom";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { PageHeader } from "../../../ui/page-header";
import classes from "./settings-tabs.module.css";

const TABS = [
  { value: "details", label: "Details", icon: IconInfoCircle },
  { value: "subscription", label: "Subscription", icon: IconCreditCard },
  { value: "fields", label: "Fields", icon: IconForms },
  { value: "share-links", label: "Share links", icon: IconLink },
  // ADMINs only (issue 36): others never see the tab.
  { value: "api-keys", label: "API keys", icon: IconKey, admin: true },
  { value: "webhooks", label: "Webhooks", icon: IconWebhook, admin: true },
  { value: "audit", label: "Audit log", icon: IconListDetails, admin: true },
] as const;

/** Mantine names each tab `${id}-tab-${value}`. */
const TABS_ID = "settings-tabs";

/** /w/:id/settings: tabs for the child pages; details is the default child. */
export function WorkspaceSettingsLayout() {
  const workspace = useCurrentWorkspace();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const base = `/w/${workspace.id}/settings`;
  const tabs = TABS.filter((tab) => !("admin" in tab) || canAdmin(workspace.user_role));
  const active = TABS.find((tab) => pathname.startsWith(`${base}/${tab.value}`))?.value ?? "details";
  // On a phone the line of tabs may scroll: the open one is brought into view (and again when the
  // line's width changes, a phone turned or a window narrowed).
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = list.current;
    if (!el) return;
    const show = () => {
      const tab = document.getElementById(`${TABS_ID}-tab-${active}`);
      if (tab && el.scrollWidth > el.clientWidth)
        el.scrollLeft = tab.offsetLeft - (el.clientWidth - tab.offsetWidth) / 2;
    };
    show();
    const observer = new ResizeObserver(show);
    observer.observe(el);
    return () => observer.disconnect();
  }, [active]);

  return (
    <>
      <PageHeader
        title="Settings"
        description={`Settings for ${workspace.name}`}
        documentTitle={`${TABS.find((t) => t.value === active)?.label} · Settings`}
      />
      <Tabs
        id={TABS_ID}
        value={active}
        onChange={(value) => value && navigate(`${base}/${value}`)}
        keepMounted={false}
        mb="lg"
        classNames={{ list: classes.list, tab: classes.tab, tabSection: classes.section }}
      >
        <Tabs.List ref={list}>
          {/* On a phone the tabs drop their icons to share one line (settings-tabs.module.css). */}
          {tabs.map(({ value, label, icon: TabIcon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<TabIcon size={16} aria-hidden />}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
