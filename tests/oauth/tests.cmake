# The OAuth 2 adapter (DataClient::OAuth) and its example, when Qt Network Authorization is
# installed: the login driven without a browser against the in-process authorization server.
if(TARGET DataClientOAuth AND DATACLIENT_BUILD_EXAMPLES)
  dataclient_add_qtest(tst_oauth2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_oauth2.cpp
    LIBS oauth_example DataClient::Testing Qt6::Network)
  add_test(NAME example_oauth COMMAND dataclient-oauth-example)
  set_tests_properties(example_oauth PROPERTIES ENVIRONMENT "${DATACLIENT_TEST_ENV}" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "logged out: no token left")
endif()
