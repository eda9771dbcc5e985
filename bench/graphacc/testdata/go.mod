module example.com/accfixture

go 1.22
