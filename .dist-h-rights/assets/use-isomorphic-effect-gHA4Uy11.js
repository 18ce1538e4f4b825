import{W as e,q as t}from"./Box-AdPfDQCa.js";var n=t(e(),1),r=typeof document<`u`?n.useLayoutEffect:n.useEffect;export{r as t};
//# sourceMappingURL=use-isomorphic-effect-gHA4Uy11.js.map