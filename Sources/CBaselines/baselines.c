int cbaselines_placeholder(void){return 0;}
