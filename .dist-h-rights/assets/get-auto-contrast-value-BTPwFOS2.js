function e(e,t){return typeof e==`boolean`?e:t.autoContrast}export{e as t};
//# sourceMappingURL=get-auto-contrast-value-BTPwFOS2.js.map