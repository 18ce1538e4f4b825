function e(e=`mantine-`){return`${e}${Math.random().toString(36).slice(2,11)}`}export{e as t};
//# sourceMappingURL=random-id-S7a4JWBX.js.map