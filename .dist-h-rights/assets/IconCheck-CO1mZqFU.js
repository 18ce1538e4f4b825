import{t as e}from"./createReactComponent-vilEJE7l.js";var t=e(`outline`,`check`,`Check`,[[`path`,{d:`M5 12l5 5l10 -10`,key:`svg-0`}]]);export{t};
//# sourceMappingURL=IconCheck-CO1mZqFU.js.map