import type { Menu as MantineMenu, MenuProps, MenuTargetProps } from "@mantine/core";
import {
  cloneElement,
  createContext,
  type MouseEvent,
  type ReactElement,
  useContext,
  useEffect,
  useState,
} from "react";
import { loadOnce } from "./load-once";
import { whenReleased } from "./when-released";

type RealMenu = typeof MantineMenu;

const menuModule = loadOnce(() => import("./menu-real").then((mod) => mod.Menu));
const loadMenu = menuModule.load;

/** Inside a menu whose code has not arrived: how its target asks to open it (null inside a real menu). */
const AskOpen = createContext<(() => void) | null>(null);

/**
 * Mantine's Menu, fetched with the first open instead of in the page's first load (issue 11): until
 * then the target renders alone (the same button, `aria-haspopup`), and its first click loads the
 * menu and opens it. Pointing at the target starts the fetch early. Used as `Menu` is: `<Menu>`,
 * `<Menu.Target>`, `<Menu.Dropdown>`, `<Menu.Item>`, `<Menu.Label>`, `<Menu.Divider>` take the same props.
 */
function LazyMenu(props: MenuProps) {
  const [Real, setReal] = useState<RealMenu | null>(menuModule.get);
  const [openFirst, setOpenFirst] = useState(false);
  const { opened, onChange } = props;

  // A controlled menu told to open before its code is here.
  useEffect(() => {
    if (opened && !Real) void loadMenu().then((menu) => setReal(() => menu));
  }, [opened, Real]);

  if (Real) {
    return (
      <AskOpen.Provider value={null}>
        <Real {...props} defaultOpened={props.defaultOpened || openFirst} />
      </AskOpen.Provider>
    );
  }
  const ask = () => {
    if (opened !== undefined) onChange?.(true);
    void loadMenu().then((menu) =>
      whenReleased(() => {
        setOpenFirst(true);
        setReal(() => menu);
      }),
    );
  };
  return <AskOpen.Provider value={ask}>{props.children}</AskOpen.Provider>;
}

function Target(props: MenuTargetProps) {
  const ask = useContext(AskOpen);
  const real = menuModule.get();
  if (!ask && real) return <real.Target {...props} />;
  const child = props.children as ReactElement<{
    onClick?: (event: MouseEvent) => void;
    onPointerEnter?: (event: MouseEvent) => void;
  }>;
  return cloneElement(child, {
    "aria-haspopup": "menu",
    "aria-expanded": false,
    onPointerEnter: (event: MouseEvent) => {
      child.props.onPointerEnter?.(event);
      void loadMenu();
    },
    onClick: (event: MouseEvent) => {
      child.props.onClick?.(event);
      ask?.();
    },
  } as Record<string, unknown>);
}

/** The parts render only inside a real menu (the dropdown shows nothing until the menu is here). */
function part<K extends "Dropdown" | "Item" | "Label" | "Divider">(name: K): RealMenu[K] {
  const Part = (props: object) => {
    const ask = useContext(AskOpen);
    const real = menuModule.get();
    if (ask || !real) return null;
    const Real = real[name] as unknown as (p: object) => ReactElement;
    return <Real {...props} />;
  };
  return Part as unknown as RealMenu[K];
}

export const Menu = Object.assign(LazyMenu, {
  Target,
  Dropdown: part("Dropdown"),
  Item: part("Item"),
  Label: part("Label"),
  Divider: part("Divider"),
});
