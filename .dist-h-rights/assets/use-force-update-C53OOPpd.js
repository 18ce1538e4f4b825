import{W as e,q as t}from"./Box-AdPfDQCa.js";var n=t(e(),1),r=e=>(e+1)%1e6;function i(){let[,e]=(0,n.useReducer)(r,0);return e}export{i as t};
//# sourceMappingURL=use-force-update-C53OOPpd.js.map